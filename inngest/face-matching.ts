import { defineJob } from "@/lib/domain/jobs/define-job";
import { matchJobRequested, referencesRequested } from "@/lib/domain/jobs/events";
import { warmUpFaces } from "@/lib/engines/ml/faces";
import { batchJob } from "@/lib/services/billed-batch/batch-job";
import { finishMatchJob } from "@/lib/services/matching/finish-match-job";
import { groupJobFaces } from "@/lib/services/matching/group-job-faces";
import { buildFailureMessage, matchFailureMessage } from "@/lib/services/matching/job-errors";
import { loadMatchJob, markMatchJobRunning } from "@/lib/services/matching/load-match-job";
import { loadReferences, processMatchFile } from "@/lib/services/matching/process-match-file";
import { embedChunk, finishBuild, loadBuild } from "@/lib/services/matching/reference-build-task";

/** Photos (or subjects) per step: a restart redoes at most this many. */
const PER_STEP = 10;

/** References from 20 subjects: embedded in steps of ten; a re-run embeds only what changed. Free: a failure refunds nothing. */
export const buildFaceReferences = defineJob({
  id: "face-references",
  name: "Face matching references",
  retries: 2,
  timeoutMs: 2 * 3600_000,
  concurrency: 1,
  ...batchJob(referencesRequested, {
    steps: { load: "load-build", each: "embed", finish: "finish", fail: "fail" },
    load: (db, { taskId, accountId }) => loadBuild(db, taskId, accountId),
    missing: "The reference build record was not found.",
    items: (build) => build.subjectIds,
    perStep: PER_STEP,
    each: (db, build, ids, signal) => embedChunk(db, build, ids, signal),
    finish: (db, { taskId }, outcome, message) => finishBuild(db, taskId, outcome, message),
    failureMessage: buildFailureMessage,
  }),
  warmUp: () => warmUpFaces({ atServerStart: true }),
});

/**
 * A match job: photos matched in steps of ten, each recorded as it is done (a
 * restart never matches a finished photo again), then one refund for every
 * photo that could not be matched; its faces are grouped by likeness for review. After the last failed attempt, or past the
 * time limit, onFailure fails what is left and refunds it in that same refund.
 */
export const matchFaces = defineJob({
  id: "match-job",
  name: "Face match job",
  retries: 2,
  timeoutMs: 4 * 3600_000,
  concurrency: 1,
  ...batchJob(matchJobRequested, {
    steps: { load: "load-job", start: "start", each: "match", finish: "finish", fail: "fail-and-refund" },
    load: (db, { matchJobId, accountId }) => loadMatchJob(db, matchJobId, accountId),
    missing: "The match job record was not found.",
    start: (db, job) => markMatchJobRunning(db, job.id),
    items: (job) => job.fileIds,
    perStep: PER_STEP,
    each: async (db, job, ids, signal) => {
      // Read per step: a subject deleted (or opted out) meanwhile is never matched again.
      const refs = await loadReferences(db, job.agencyId);
      for (const id of ids) await processMatchFile(db, job, id, refs, { signal });
    },
    finish: async (db, { matchJobId, accountId }, outcome, message) => {
      // Grouped before the job ends, so review by group is ready when the job reads completed.
      await groupJobFaces(db, matchJobId);
      return finishMatchJob(db, { matchJobId, accountId, outcome, message });
    },
    failureMessage: matchFailureMessage,
  }),
  warmUp: () => warmUpFaces({ atServerStart: true }),
});
