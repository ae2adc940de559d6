import { getServerSession } from "next-auth";
import { redirect } from "next/navigation";
import { getDb } from "@/lib/db/client";
import { findAccountById } from "@/lib/accounts/find-account";
import type { AccountRow } from "@/lib/accounts/public-account";
import { authOptions } from "./next-auth-options";

/** The signed-in account for a studio page, or a redirect to sign-in. */
export async function requireAccount(): Promise<AccountRow> {
  const account = await optionalAccount();
  if (!account) redirect("/signin");
  return account;
}

/** The session's account, unless its password was reset or changed after this session signed in. */
export async function optionalAccount(): Promise<AccountRow | undefined> {
  const session = await getServerSession(authOptions());
  const user = session?.user as { id?: string; cv?: number } | undefined;
  const account = user?.id ? await findAccountById(await getDb(), user.id) : undefined;
  return account && account.credentialsVersion === (user?.cv ?? 0) ? account : undefined;
}
