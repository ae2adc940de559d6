import { and, count, desc, eq, type SQL } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { bgRemoveJobs } from "@/lib/foundation/db/schema";
import { toPublicBgRemoveJob } from "./public-job";

/** The account's jobs, newest first, optionally of one status (GET /v1/services/bg-remove). */
export async function listBgRemoveJobs(db: Db, accountId: string, filter: { status?: string }, page: { limit: number; offset: number }) {
  const conditions: SQL[] = [eq(bgRemoveJobs.accountId, accountId)];
  if (filter.status) conditions.push(eq(bgRemoveJobs.status, filter.status as (typeof bgRemoveJobs.status.enumValues)[number]));
  const where = and(...conditions);
  const [rows, [total]] = await Promise.all([
    db.select().from(bgRemoveJobs).where(where).orderBy(desc(bgRemoveJobs.createdAt), desc(bgRemoveJobs.id)).limit(page.limit).offset(page.offset),
    db.select({ n: count() }).from(bgRemoveJobs).where(where),
  ]);
  return { items: await Promise.all(rows.map(toPublicBgRemoveJob)), total: total?.n ?? 0 };
}
