import { and, eq } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { fixJobs, type FixRecheckRecord, type FixStepRecord } from "@/lib/foundation/db/schema";
import { storage } from "@/lib/domain/storage";
import { applyFixes, loadReport, type AppliedFixes, type FixJobWork } from "./apply-fixes";
import { completeFixJob, moveFixJob } from "./finish-job";
import { FixEngineError } from "./job-errors";
import { recheckOutput } from "./recheck-output";
import { storePreviews } from "./render-previews";
import { outputKey, stagedKey } from "./storage-keys";

/** The steps of inngest/fixes.ts, each a plain function so both runtimes and the tests call the same code. */

export async function loadFixJob(db: Db, jobId: string, accountId: string) {
  const [row] = await db
    .select()
    .from(fixJobs)
    .where(and(eq(fixJobs.id, jobId), eq(fixJobs.accountId, accountId)));
  // With Inngest the event may arrive a moment before the job's transaction commits.
  if (!row) throw new FixEngineError("The job record was not found.");
  const { id, reportId, status, fileKind, fixTypes, prepressSteps, targetDpi, review, approvedFixTypes, suggestions, outputKey: staged, flattenedPages, engine } = row;
  return { id, accountId: row.accountId, reportId, status, fileKind, fixTypes, prepressSteps, targetDpi, review, approvedFixTypes, suggestions, staged, flattenedPages, engine };
}

/** Review mode: apply every suggestion to a staged file, draw before/after, and wait for the owner. */
export async function stageForReview(db: Db, job: FixJobWork, signal?: AbortSignal) {
  const done = await applyFixes(db, job, null, (ext) => stagedKey(job.accountId, job.id, ext), signal);
  const previews = await storePreviews(job, { key: done.sourceKey, mime: done.sourceMime }, { key: done.outputKey, mime: done.outputMime }, signal);
  const moved = await moveFixJob(db, job.id, ["analyzing"], "awaiting_approval", {
    suggestions: done.applied,
    outputKey: done.outputKey,
    outputMime: done.outputMime,
    flattenedPages: done.flattenedPages,
    engine: done.engine,
    ...previews,
  });
  if (!moved) await storage().delete(done.outputKey).catch(() => {});
  return { staged: done.outputKey, moved };
}

/**
 * Produces the corrected file: the staged one when everything suggested was
 * approved, else the fixes run (again) on the source. Returns what the
 * completion records.
 */
export async function produceOutput(db: Db, job: FixJobWork & { review: boolean; approvedFixTypes: string[] | null; suggestions: FixStepRecord[] | null; staged: string | null; flattenedPages: number[] | null; engine: string | null }, signal?: AbortSignal): Promise<AppliedFixes> {
  const suggested = (job.suggestions ?? []).filter((s) => !s.skipped).map((s) => s.fixType);
  const all = !job.approvedFixTypes || suggested.every((f) => job.approvedFixTypes!.includes(f));
  if (job.review && all && job.staged) {
    const staged = await storage().get(job.staged);
    if (staged) {
      const ext = job.staged.split(".").pop()!;
      const key = outputKey(job.accountId, job.id, ext);
      await storage().put(key, staged.body, staged.contentType);
      await storage().delete(job.staged);
      const report = await loadReport(db, job);
      return { outputKey: key, outputMime: staged.contentType, applied: job.suggestions ?? [], flattenedPages: job.flattenedPages, engine: job.engine, sourceKey: report.fileStorageKey, sourceMime: report.fileMime };
    }
  }
  const approved = job.review ? (job.approvedFixTypes ?? null) : null;
  const done = await applyFixes(db, job, approved && !all ? approved : null, (ext) => outputKey(job.accountId, job.id, ext), signal);
  if (job.staged) await storage().delete(job.staged).catch(() => {});
  return done;
}

/** Re-check, pictures, completion. */
export async function finishFixJob(db: Db, job: FixJobWork, done: AppliedFixes, signal?: AbortSignal): Promise<FixRecheckRecord> {
  const report = await loadReport(db, job);
  const ran = done.applied.filter((a) => !a.skipped);
  const fixed = new Set(ran.map((a) => a.fixType));
  const steps = new Set(ran.flatMap((a) => a.prepressSteps ?? []));
  const recheck = await recheckOutput(db, report, { key: done.outputKey, mime: done.outputMime }, (issue) =>
    issue.fixTypes.some((f) => fixed.has(f)) || (typeof issue.details.prepressFix === "string" && steps.has(issue.details.prepressFix)),
    { flattenedPages: done.flattenedPages },
  );
  const previews = await storePreviews(job, { key: done.sourceKey, mime: done.sourceMime }, { key: done.outputKey, mime: done.outputMime }, signal);
  await db.update(fixJobs).set(previews).where(eq(fixJobs.id, job.id));
  await completeFixJob(db, job.id, { outputKey: done.outputKey, outputMime: done.outputMime, applied: done.applied, flattenedPages: done.flattenedPages, engine: done.engine, recheck });
  return recheck;
}
