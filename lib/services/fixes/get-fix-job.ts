import { and, eq } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { fixJobs } from "@/lib/foundation/db/schema";
import { notFound } from "@/lib/foundation/http/api-error";
import { toPublicFixJob } from "./public-job";

export async function getFixJobRow(db: Db, accountId: string, jobId: string) {
  const [row] = await db
    .select()
    .from(fixJobs)
    .where(and(eq(fixJobs.id, jobId), eq(fixJobs.accountId, accountId)));
  if (!row) throw notFound("AI fix job");
  return row;
}

/** Another account's job is indistinguishable from a missing one (404). */
export async function getFixJob(db: Db, accountId: string, jobId: string) {
  return toPublicFixJob(await getFixJobRow(db, accountId, jobId));
}
