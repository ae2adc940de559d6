import type { Db } from "@/lib/foundation/db/types";
import { dummyPasswordHash, verifyPassword } from "@/lib/domain/identity/password";
import { findAccountByEmail } from "./find-account";
import type { AccountRow } from "./public-account";

/** The account for these credentials, or null. Unknown emails cost the same hash work as known ones. */
export async function verifyCredentials(db: Db, email: string, password: string): Promise<AccountRow | null> {
  const account = await findAccountByEmail(db, email);
  const ok = await verifyPassword(account?.passwordHash ?? (await dummyPasswordHash()), password);
  return account && ok ? account : null;
}
