import { z } from "zod";
import { appOrigin } from "@/lib/foundation/http/app-origin";
import { requestOrigin } from "@/lib/foundation/http/request-context";
import { countNoun } from "@/lib/foundation/count-noun";
import { encodeCursor, type ListCursor, type ListKey, type ListQueryOutput } from "./list-query";

/**
 * Rows beyond `from` (or from the start / the end when null), walking in list
 * order (`forward`) or against it, at most `limit`, in walking order; the row
 * at `from` itself only when `inclusive`.
 */
export type KeysetStep = { from: ListKey | null; forward: boolean; limit: number; inclusive?: boolean };
export type FetchRows<R> = (step: KeysetStep) => Promise<R[]>;

export type KeysetPage<R> = { items: R[]; prev: ListCursor | null; next: ListCursor | null };

/**
 * One page of a keyset-paginated list. The sort is total (sort column, then
 * id), so following `next` from the first page, or `prev` from the last, visits
 * every record exactly once even when many share a sort value, and records
 * created or deleted meanwhile never shift the others (as OFFSET would). Costs
 * one index range scan of `limit + 1` rows, plus (with a cursor) a concurrent
 * one-row probe of the other side; never a count of the whole list.
 */
export async function keysetPage<R>(q: ListQueryOutput, fetch: FetchRows<R>, keyOf: (r: R) => ListKey): Promise<KeysetPage<R>> {
  const cursor = q.cursor;
  const at = (direction: "after" | "before", key: ListKey | null): ListCursor => ({ direction, sortBy: q.sortBy, order: q.order, key });
  const forward = !cursor || cursor.direction === "after";
  const key = cursor?.key ?? null;
  // The probe asks whether anything lies on the other side of the cursor (its
  // own record included). It runs beside the page query, not after it: on
  // PostgreSQL the two take one round trip's time.
  const [rows, otherSide] = await Promise.all([
    fetch({ from: key, forward, limit: q.limit + 1 }),
    key ? fetch({ from: key, forward: !forward, limit: 1, inclusive: true }).then((r) => r.length > 0) : Promise.resolve(false),
  ]);
  const more = rows.length > q.limit;
  const items = forward ? rows.slice(0, q.limit) : rows.slice(0, q.limit).reverse();
  const first = items[0];
  const last = items[items.length - 1];
  if (forward) {
    // Past the end (the records after the cursor were deleted): prev leads to the last page.
    return { items, prev: otherSide ? at("before", first ? keyOf(first) : null) : null, next: more && last ? at("after", keyOf(last)) : null };
  }
  // Before the start (the records before the cursor were deleted): next leads to the first page.
  return { items, prev: more && first ? at("before", keyOf(first)) : null, next: otherSide ? at("after", last ? keyOf(last) : null) : null };
}

/** The contract's list envelope (2.10) for a keyset page: links carry the filters, sort and limit. */
export function keysetEnvelope<T>(req: Request, q: ListQueryOutput, page: KeysetPage<unknown>, data: T[], noun: string) {
  const url = new URL(req.url);
  const path = `${appOrigin(requestOrigin(req))}${url.pathname}`;
  const link = (cursor: ListCursor | null) => {
    const u = new URL(path);
    for (const [k, v] of url.searchParams) if (!["cursor", "limit", "sortBy", "order"].includes(k)) u.searchParams.set(k, v);
    u.searchParams.set("limit", String(q.limit));
    u.searchParams.set("sortBy", q.sortBy);
    u.searchParams.set("order", q.order);
    // An "after nothing" cursor is simply the first page.
    if (cursor && (cursor.direction === "before" || cursor.key)) u.searchParams.set("cursor", encodeCursor(cursor));
    return u.toString();
  };
  return {
    data,
    links: {
      first: link(null),
      last: link({ direction: "before", sortBy: q.sortBy, order: q.order, key: null }),
      prev: page.prev ? link(page.prev) : null,
      next: page.next ? link(page.next) : null,
    },
    meta: { path, per_page: q.limit, sort_by: q.sortBy, order: q.order },
    message: `Retrieved ${countNoun(data.length, noun)}.`,
  };
}

/** The response shape of keysetEnvelope, for the API description (lib/http/openapi). */
export function keysetResponse<T extends z.ZodType>(item: T) {
  const link = z.string().nullable();
  return z.object({
    data: z.array(item),
    links: z.object({ first: z.string(), last: z.string(), prev: link, next: link }),
    meta: z.object({ path: z.string(), per_page: z.number().int(), sort_by: z.string(), order: z.enum(["asc", "desc"]) }),
    message: z.string(),
  });
}
