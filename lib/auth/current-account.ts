import { getServerSession } from "next-auth";
import { redirect } from "next/navigation";
import { getDb } from "@/lib/db/client";
import { findAccountById } from "@/lib/accounts/find-account";
import type { AccountRow } from "@/lib/accounts/public-account";
import { authOptions } from "./next-auth-options";

/** The signed-in account for a studio page, or a redirect to sign-in. */
export async function requireAccount(): Promise<AccountRow> {
  const session = await getServerSession(authOptions());
  const id = (session?.user as { id?: string } | undefined)?.id;
  const account = id ? await findAccountById(await getDb(), id) : undefined;
  if (!account) redirect("/signin");
  return account;
}

export async function optionalAccount(): Promise<AccountRow | undefined> {
  const session = await getServerSession(authOptions());
  const id = (session?.user as { id?: string } | undefined)?.id;
  return id ? findAccountById(await getDb(), id) : undefined;
}
