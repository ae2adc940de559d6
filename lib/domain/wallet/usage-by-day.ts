import { and, eq, gte, sql } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { walletTransactions } from "@/lib/foundation/db/schema";

/** Tokens spent (debits net of refunds; never purchases) and granted per UTC day, for the dashboard chart. */
export async function usageByDay(db: Db, accountId: string, days: number) {
  const since = new Date(Date.now() - (days - 1) * 86_400_000);
  since.setUTCHours(0, 0, 0, 0);
  const day = sql<string>`to_char(${walletTransactions.createdAt} at time zone 'UTC', 'YYYY-MM-DD')`;
  const rows = await db
    .select({
      day,
      // Only debits and their refunds are spending: a purchase (or its reversal) moves the balance but is not use.
      spent: sql<number>`coalesce(sum(case when ${walletTransactions.type} in ('debit', 'refund') then -${walletTransactions.amount} else 0 end), 0)::int`,
      granted: sql<number>`coalesce(sum(case when ${walletTransactions.type} = 'grant' then ${walletTransactions.amount} else 0 end), 0)::int`,
    })
    .from(walletTransactions)
    .where(and(eq(walletTransactions.accountId, accountId), gte(walletTransactions.createdAt, since)))
    .groupBy(day);
  const byDay = new Map(rows.map((r) => [r.day, r]));
  return Array.from({ length: days }, (_, i) => {
    const d = new Date(since.getTime() + i * 86_400_000).toISOString().slice(0, 10);
    const r = byDay.get(d);
    return { date: d, spent: Number(r?.spent ?? 0), granted: Number(r?.granted ?? 0) };
  });
}
