import { and, eq } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { bgRemoveJobs } from "@/lib/foundation/db/schema";
import { notFound } from "@/lib/foundation/http/api-error";
import { toPublicBgRemoveJob } from "./public-job";

/** Another account's job is indistinguishable from a missing one (404). */
export async function getBgRemoveJob(db: Db, accountId: string, jobId: string) {
  const [row] = await db
    .select()
    .from(bgRemoveJobs)
    .where(and(eq(bgRemoveJobs.id, jobId), eq(bgRemoveJobs.accountId, accountId)));
  if (!row) throw notFound("Background removal job");
  return toPublicBgRemoveJob(row);
}
