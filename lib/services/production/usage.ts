import { and, count, eq, gte, lt } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { photoMattes } from "@/lib/foundation/db/schema";

const DAY_MS = 86_400_000;

/**
 * The studio's production usage over days (UTC, both included; by default from the
 * first of this month to today): the cut-outs (person mattes) the background-removal
 * engine made for its photos, full-size for prints and preview-size for the
 * storefront. Each is one engine run, made once per photo and scale and kept
 * (person-matte.ts), so its row is the count; a photo deleted since takes its rows along.
 */
export async function productionUsage(db: Db, accountId: string, query: { from?: string; to?: string }, now = new Date()) {
  const today = now.toISOString().slice(0, 10);
  const from = query.from ?? `${today.slice(0, 7)}-01`;
  const to = query.to ?? today;
  const rows = await db
    .select({ scale: photoMattes.scale, n: count() })
    .from(photoMattes)
    .where(and(eq(photoMattes.accountId, accountId), gte(photoMattes.createdAt, new Date(`${from}T00:00:00Z`)), lt(photoMattes.createdAt, new Date(Date.parse(`${to}T00:00:00Z`) + DAY_MS))))
    .groupBy(photoMattes.scale);
  const of = (scale: "full" | "preview") => rows.find((r) => r.scale === scale)?.n ?? 0;
  return { from, to, cutouts: { full: of("full"), preview: of("preview"), total: of("full") + of("preview") } };
}
