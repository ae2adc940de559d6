import { z } from "zod";
import { pageQuery } from "@/lib/foundation/http/pagination";
import { SORT_KEYS, type SortKey } from "./catalog-values";

export type SortOrder = "asc" | "desc";
/** A position in a sorted list: the sort column's value and the id that breaks ties. */
export type ListKey = { value: string; id: string };
/**
 * `after`: the records following `key` in list order (no key: the first page).
 * `before`: the records preceding `key` (no key: the last page).
 */
export type ListCursor = { direction: "after" | "before"; sortBy: SortKey; order: SortOrder; key: ListKey | null };

const cursorShape = z.tuple([z.enum(["a", "b"]), z.enum(SORT_KEYS), z.enum(["asc", "desc"]), z.string().max(400).nullable(), z.string().max(64).nullable()]);

/** Opaque to clients (base64url JSON); they only ever follow the links we hand out. */
export function encodeCursor(c: ListCursor): string {
  const tuple = [c.direction === "after" ? "a" : "b", c.sortBy, c.order, c.key?.value ?? null, c.key?.id ?? null];
  return Buffer.from(JSON.stringify(tuple)).toString("base64url");
}

export function decodeCursor(raw: string): ListCursor | null {
  try {
    const parsed = cursorShape.safeParse(JSON.parse(Buffer.from(raw, "base64url").toString("utf8")));
    if (!parsed.success) return null;
    const [d, sortBy, order, value, id] = parsed.data;
    if ((value === null) !== (id === null)) return null;
    if (value !== null && sortBy !== "name" && Number.isNaN(Date.parse(value))) return null;
    return { direction: d === "a" ? "after" : "before", sortBy, order, key: value !== null && id !== null ? { value, id } : null };
  } catch {
    return null;
  }
}

/**
 * The fields of a core list's query string: `limit` exactly as the
 * foundation's pageQuery (1..100, default 20, out of range is a 400), a keyset
 * `cursor` instead of `page`, an optional `status` filter, `sortBy` and
 * `order`. Use with z.strictObject (unknown parameters, `page` included, are a
 * 400 naming them) and `.transform(resolveListCursor)`.
 */
export function listQueryShape<const S extends readonly [string, ...string[]]>(statuses: S) {
  return {
    limit: pageQuery.shape.limit,
    cursor: z.string().min(1).max(1000).optional(),
    status: z.enum(statuses).optional(),
    sortBy: z.enum(SORT_KEYS).default("created_at"),
    order: z.enum(["asc", "desc"]).optional(),
  };
}

/** Resolves the default order (newest first for timestamps, A to Z for names) and decodes the cursor, which must match the sort. */
export function resolveListCursor<T extends { sortBy: SortKey; order?: SortOrder; cursor?: string }>(q: T, ctx: z.RefinementCtx) {
  const order: SortOrder = q.order ?? (q.sortBy === "name" ? "asc" : "desc");
  let cursor: ListCursor | null = null;
  if (q.cursor !== undefined) {
    cursor = decodeCursor(q.cursor);
    if (!cursor) {
      ctx.addIssue({ code: "custom", path: ["cursor"], message: "Not a cursor from this API: follow links.next / links.prev as given, or leave cursor out for the first page." });
      return z.NEVER;
    }
    if (cursor.sortBy !== q.sortBy || cursor.order !== order) {
      ctx.addIssue({
        code: "custom",
        path: ["cursor"],
        message: `This cursor belongs to a list sorted by ${cursor.sortBy} ${cursor.order}; keep the same sortBy and order, or leave cursor out to start over.`,
      });
      return z.NEVER;
    }
  }
  return { ...q, order, cursor };
}

export type ListQueryOutput = { limit: number; sortBy: SortKey; order: SortOrder; cursor: ListCursor | null };
