import { and, count, eq, gte, lt } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { productionUsageEvents } from "@/lib/foundation/db/schema";

const DAY_MS = 86_400_000;

/**
 * The studio's production usage over days (UTC, both included; by default from the
 * first of this month to today): the cut-outs (person mattes) the background-removal
 * engine made for its photos, full-size for prints and preview-size for the
 * storefront. Each is one engine run, made once per photo and scale and kept
 * (person-matte.ts); counted from the usage events written as each matte is stored, which
 * stay when the photo (and its mattes) is deleted: usage is what was made.
 */
export async function productionUsage(db: Db, accountId: string, query: { from?: string; to?: string }, now = new Date()) {
  const today = now.toISOString().slice(0, 10);
  const from = query.from ?? `${today.slice(0, 7)}-01`;
  const to = query.to ?? today;
  const rows = await db
    .select({ scale: productionUsageEvents.scale, n: count() })
    .from(productionUsageEvents)
    .where(
      and(
        eq(productionUsageEvents.accountId, accountId),
        eq(productionUsageEvents.kind, "cutout"),
        gte(productionUsageEvents.createdAt, new Date(`${from}T00:00:00Z`)),
        lt(productionUsageEvents.createdAt, new Date(Date.parse(`${to}T00:00:00Z`) + DAY_MS)),
      ),
    )
    .groupBy(productionUsageEvents.scale);
  const of = (scale: "full" | "preview") => rows.find((r) => r.scale === scale)?.n ?? 0;
  return { from, to, cutouts: { full: of("full"), preview: of("preview"), total: of("full") + of("preview") } };
}
