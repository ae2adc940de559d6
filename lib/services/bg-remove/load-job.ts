import { and, eq } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { bgRemoveJobs } from "@/lib/foundation/db/schema";
import { BgRemoveTransientError } from "./job-errors";

/** A job as its run works on it (plain JSON: a step's value is stored). */
export async function loadBgRemoveJob(db: Db, jobId: string, accountId: string) {
  const [row] = await db
    .select()
    .from(bgRemoveJobs)
    .where(and(eq(bgRemoveJobs.id, jobId), eq(bgRemoveJobs.accountId, accountId)));
  // With Inngest the event is sent just before the job's transaction commits:
  // a run can start a moment early (a retry finds the row), or for a
  // transaction that rolled back (the failure handler then finds nothing to do).
  if (!row) throw new BgRemoveTransientError("The job record was not found.");
  const { id, status, imageUrl, subjectType, edgeSoftness, highDetailMode, outputBackground } = row;
  return { id, accountId: row.accountId, status, imageUrl, subjectType, edgeSoftness, highDetailMode, outputBackground };
}
