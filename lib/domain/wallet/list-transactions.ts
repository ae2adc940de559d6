import { and, count, desc, eq, or, type SQL } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { accounts, apiKeys, walletTransactions } from "@/lib/foundation/db/schema";
import { toLedgerEntry, type SpentBy } from "./ledger-entry";
import { personNameSql } from "@/lib/domain/identity/person-name";

/**
 * Newest first; `seq` breaks ties between rows written in the same millisecond.
 * `spentBy` (a member's login id or an API key id) keeps that one's debits.
 */
export async function listTransactions(db: Db, accountId: string, page: { limit: number; offset: number }, spentBy?: string) {
  const conditions: SQL[] = [eq(walletTransactions.accountId, accountId)];
  if (spentBy) conditions.push(or(eq(walletTransactions.actorUserId, spentBy), eq(walletTransactions.apiKeyId, spentBy))!);
  const where = and(...conditions);
  const [rows, [total]] = await Promise.all([
    db
      .select({ row: walletTransactions, memberName: personNameSql, keyName: apiKeys.name })
      .from(walletTransactions)
      .leftJoin(accounts, eq(accounts.id, walletTransactions.actorUserId))
      .leftJoin(apiKeys, eq(apiKeys.id, walletTransactions.apiKeyId))
      .where(where)
      .orderBy(desc(walletTransactions.seq))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(walletTransactions).where(where),
  ]);
  return { items: rows.map((r) => toLedgerEntry(r.row, spentByOf(r.row, r.memberName, r.keyName))), total: total?.n ?? 0 };
}

function spentByOf(row: { actorUserId: string | null; apiKeyId: string | null }, memberName: string | null, keyName: string | null): SpentBy {
  if (row.apiKeyId) return { type: "api_key", id: row.apiKeyId, name: keyName ?? "API key" };
  if (row.actorUserId) return { type: "member", id: row.actorUserId, name: memberName ?? "Former member" };
  return null;
}
