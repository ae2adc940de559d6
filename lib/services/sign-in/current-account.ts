import { getServerSession } from "next-auth";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { getDb } from "@/lib/foundation/db/client";
import { findAccountById } from "@/lib/domain/identity/find-account";
import type { AccountRow } from "@/lib/domain/identity/public-account";
import { authOptions } from "./next-auth-options";
import { membershipFor, membershipOrOwnStudio } from "@/lib/domain/identity/membership";
import { loginSessionActive } from "@/lib/domain/identity/login-sessions";
import type { Role } from "@/lib/domain/identity/roles";
import { STUDIO_COOKIE } from "@/lib/domain/identity/studio-choice";
import { REQUESTED_PATH_HEADER, signInPathFor } from "./return-path";

/** Sign-in, returning afterwards to the page asked for (proxy.ts passes its path). */
async function redirectToSignIn(): Promise<never> {
  redirect(signInPathFor((await headers()).get(REQUESTED_PATH_HEADER)));
}

/** The signed-in login for a studio page, or a redirect to sign-in. */
export async function requireAccount(): Promise<AccountRow> {
  const account = await optionalAccount();
  if (!account) return redirectToSignIn();
  return account;
}

/** The session's login, unless its password was reset or changed after this session signed in. */
export async function optionalAccount(): Promise<AccountRow | undefined> {
  const session = await getServerSession(authOptions());
  const user = session?.user as { id?: string; cv?: number; sid?: string } | undefined;
  const db = await getDb();
  const account = user?.id ? await findAccountById(db, user.id) : undefined;
  if (!account || account.credentialsVersion !== (user?.cv ?? 0)) return undefined;
  // A session the person ended (account page, another device) signs this browser out.
  if (user?.sid && !(await loginSessionActive(db, account.id, user.sid))) return undefined;
  return account;
}

export type StudioMember = { user: AccountRow; studio: AccountRow; role: Role };

/**
 * The signed-in person, the studio they act for (the switcher's cookie, else their
 * own) and their role there: what the /v1 wrapper decides for the same browser.
 */
export async function requireMember(): Promise<StudioMember> {
  const user = await requireAccount();
  const db = await getDb();
  const chosen = (await cookies()).get(STUDIO_COOKIE)?.value;
  const membership = (chosen ? await membershipFor(db, user.id, chosen) : undefined) ?? (await membershipFor(db, user.id));
  const studio = membership && (membership.accountId === user.id ? user : await findAccountById(db, membership.accountId));
  // Signed in but in no studio (removed from the only one, or it was deleted): a page that
  // says so. Sign-in would only send them back here, round a redirect loop.
  if (!membership || !studio) redirect(NO_STUDIO_PATH);
  return { user, studio, role: membership.role };
}

export const NO_STUDIO_PATH = "/no-studio";

/**
 * The page for a signed-in person in no studio: creates one of their own (empty,
 * no sign-up bonus: lib/domain/identity/membership.ts) when they ask for it.
 */
export async function createOwnStudio(): Promise<void> {
  const user = await requireAccount();
  await membershipOrOwnStudio(await getDb(), user.id);
}
