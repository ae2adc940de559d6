import { and, eq, inArray, isNotNull, lt } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { jobRuns, qrGenerations } from "@/lib/foundation/db/schema";
import { storage } from "@/lib/domain/storage";

/**
 * Deletes the embedded runner's finished runs (completed or failed) that ended
 * before `before`, with their stored steps (ON DELETE CASCADE). The job records
 * people look at (bg_remove_jobs, …) are separate and stay; queued or running
 * runs are never touched. Returns how many runs were deleted.
 */
export async function pruneFinishedJobRuns(db: Db, before: Date): Promise<number> {
  const rows = await db
    .delete(jobRuns)
    .where(and(inArray(jobRuns.status, ["completed", "failed"]), isNotNull(jobRuns.finishedAt), lt(jobRuns.finishedAt, before)))
    .returning({ id: jobRuns.id });
  return rows.length;
}

/**
 * A Bulk QR PDF is handed out once, with a URL that expires (OUTPUT_URL_TTL_SECONDS);
 * no endpoint signs it again. Once that URL is dead the file is unreachable, so
 * it is deleted; the generation record stays (the ledger's debit refers to it)
 * without a storage key. `before`: PDFs completed before it go.
 */
export async function expireQrPdfs(db: Db, before: Date, limit = 500): Promise<number> {
  const due = await db
    .select({ id: qrGenerations.id, key: qrGenerations.storageKey })
    .from(qrGenerations)
    .where(and(isNotNull(qrGenerations.storageKey), lt(qrGenerations.completedAt, before)))
    .limit(limit);
  for (const row of due) {
    // The file first: if deleting it fails (throws) the record keeps its key and the next sweep retries.
    await storage().delete(row.key!);
    await db.update(qrGenerations).set({ storageKey: null }).where(eq(qrGenerations.id, row.id));
  }
  return due.length;
}
