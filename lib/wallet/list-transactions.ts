import { count, desc, eq } from "drizzle-orm";
import type { Db } from "@/lib/db/types";
import { walletTransactions } from "@/lib/db/schema";
import { toLedgerEntry } from "./ledger-entry";

/** Newest first; `seq` breaks ties between rows written in the same millisecond. */
export async function listTransactions(db: Db, accountId: string, page: { limit: number; offset: number }) {
  const where = eq(walletTransactions.accountId, accountId);
  const [rows, [total]] = await Promise.all([
    db.select().from(walletTransactions).where(where).orderBy(desc(walletTransactions.seq)).limit(page.limit).offset(page.offset),
    db.select({ n: count() }).from(walletTransactions).where(where),
  ]);
  return { items: rows.map(toLedgerEntry), total: total?.n ?? 0 };
}
