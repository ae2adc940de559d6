import { asc, desc, sql, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import type { SortKey } from "./catalog-values";
import type { ListKey, SortOrder } from "./list-query";

/**
 * The WHERE and ORDER BY of one keyset step. A row comparison
 * `(col, id) > (v, id0)` is what lets PostgreSQL answer from the
 * `(account_id, [status,] col, id)` index as a single range scan, in either
 * direction (a backward index scan serves the descending case).
 */
export function keysetSql(col: PgColumn, idCol: PgColumn, sortBy: SortKey, order: SortOrder, step: { from: ListKey | null; forward: boolean; inclusive?: boolean }) {
  const { from, forward, inclusive = false } = step;
  const ascending = (order === "asc") === forward;
  let where: SQL | undefined;
  if (from) {
    // Timestamps travel as ISO text in cursors; the columns keep milliseconds, so the cast is exact.
    const value = sortBy === "name" ? sql`${from.value}` : sql`${from.value}::timestamptz`;
    const op = sql.raw(ascending ? (inclusive ? ">=" : ">") : inclusive ? "<=" : "<");
    where = sql`(${col}, ${idCol}) ${op} (${value}, ${from.id})`;
  }
  const orderBy = ascending ? [asc(col), asc(idCol)] : [desc(col), desc(idCol)];
  return { where, orderBy };
}

/** The cursor key of a row for a sort. */
export function rowKey(row: { id: string; name: string; createdAt: Date; updatedAt: Date }, sortBy: SortKey): ListKey {
  const value = sortBy === "name" ? row.name : (sortBy === "created_at" ? row.createdAt : row.updatedAt).toISOString();
  return { value, id: row.id };
}
