import { and, asc, eq } from "drizzle-orm";
import { getDb } from "@/lib/foundation/db/client";
import { matchFiles, matchJobs } from "@/lib/foundation/db/schema";
import { defineJob } from "@/lib/domain/jobs/define-job";
import { warmUpFaces } from "@/lib/engines/ml/faces";
import { embedChunk, finishBuild, loadBuild } from "@/lib/services/matching/reference-build-task";
import { finishMatchJob } from "@/lib/services/matching/finish-match-job";
import { loadReferences, processMatchFile } from "@/lib/services/matching/process-match-file";
import { matchJobRequested, referencesRequested } from "@/lib/domain/jobs/events";

/** Photos (or subjects) per step: a restart redoes at most this many. */
const PER_STEP = 10;

const messageFor = (error: { name: string; message: string }) =>
  error.name === "JobTimeoutError" ? error.message : "The match job stopped because of an error on our side.";

/** References from 20 subjects: embedded in steps of ten; a re-run embeds only what changed. */
export const buildFaceReferences = defineJob({
  id: "face-references",
  name: "Face matching references",
  event: referencesRequested,
  retries: 2,
  timeoutMs: 2 * 3600_000,
  concurrency: 1,
  handler: async ({ event, step, signal }) => {
    const loaded = await step.run("load-build", async () => {
      const found = await loadBuild(await getDb(), event.data.taskId, event.data.accountId);
      if (!found) throw new Error("The reference build record was not found.");
      return { id: found.build.id, agencyId: found.build.agencyId, status: found.build.status, subjectIds: found.subjectIds };
    });
    if (loaded.status === "completed" || loaded.status === "failed") return { skipped: loaded.status };
    for (let at = 0; at < loaded.subjectIds.length; at += PER_STEP) {
      const chunk = loaded.subjectIds.slice(at, at + PER_STEP);
      await step.run(`embed-${at}`, async () => {
        await embedChunk(await getDb(), loaded, chunk, signal);
        return chunk.length;
      });
    }
    const ended = await step.run("finish", async () => finishBuild(await getDb(), loaded.id, "completed"));
    return { status: ended?.status };
  },
  onFailure: async ({ event, error, step }) => {
    await step.run("fail", async () => finishBuild(await getDb(), event.data.taskId, "failed", error.name === "JobTimeoutError" ? error.message : undefined));
  },
  warmUp: () => warmUpFaces({ atServerStart: true }),
});

/**
 * A match job: photos matched in steps of ten, each recorded as it is done (a
 * restart never matches a finished photo again), then one refund for every
 * photo that could not be matched. After the last failed attempt, or past the
 * time limit, onFailure fails what is left and refunds it in that same refund.
 */
export const matchFaces = defineJob({
  id: "match-job",
  name: "Face match job",
  event: matchJobRequested,
  retries: 2,
  timeoutMs: 4 * 3600_000,
  concurrency: 1,
  handler: async ({ event, step, signal }) => {
    const job = await step.run("load-job", async () => {
      const db = await getDb();
      const [row] = await db.select().from(matchJobs).where(and(eq(matchJobs.id, event.data.matchJobId), eq(matchJobs.accountId, event.data.accountId)));
      if (!row) throw new Error("The match job record was not found.");
      const files = await db.select({ id: matchFiles.id }).from(matchFiles).where(eq(matchFiles.matchJobId, row.id)).orderBy(asc(matchFiles.position));
      return { id: row.id, accountId: row.accountId, agencyId: row.agencyId, threshold: row.threshold, status: row.status, fileIds: files.map((f) => f.id) };
    });
    if (job.status === "completed" || job.status === "failed") return { skipped: job.status };
    await step.run("start", async () =>
      (await getDb()).update(matchJobs).set({ status: "running" }).where(and(eq(matchJobs.id, job.id), eq(matchJobs.status, "queued"))),
    );
    for (let at = 0; at < job.fileIds.length; at += PER_STEP) {
      const chunk = job.fileIds.slice(at, at + PER_STEP);
      await step.run(`match-${at}`, async () => {
        const db = await getDb();
        // Read per step: a subject deleted (or opted out) meanwhile is never matched again.
        const refs = await loadReferences(db, job.agencyId);
        for (const id of chunk) await processMatchFile(db, job, id, refs, { signal });
        return chunk.length;
      });
    }
    const ended = await step.run("finish", async () => finishMatchJob(await getDb(), { matchJobId: job.id, accountId: job.accountId, outcome: "completed" }));
    return { status: ended?.status, refunded: ended?.tokensRefunded };
  },
  onFailure: async ({ event, error, step }) => {
    await step.run("fail-and-refund", async () =>
      finishMatchJob(await getDb(), { matchJobId: event.data.matchJobId, accountId: event.data.accountId, outcome: "failed", message: messageFor(error) }),
    );
  },
  warmUp: () => warmUpFaces({ atServerStart: true }),
});
