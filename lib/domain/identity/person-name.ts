import { sql } from "drizzle-orm";
import { accounts } from "@/lib/foundation/db/schema";
import type { AccountRow } from "./public-account";

// A login row is also the login's own studio, and `name` is that studio's name (an
// admin there may rename it). How the person is named to the studios they belong
// to (team list, the ledger's "By", the audit log) is `person_name`, else `name`.

export function personName(row: Pick<AccountRow, "name" | "personName">): string {
  return row.personName ?? row.name;
}

/** The same, in a query that joins `accounts` as the person. */
export const personNameSql = sql<string>`coalesce(${accounts.personName}, ${accounts.name})`;
