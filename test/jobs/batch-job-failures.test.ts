import { afterAll, describe, expect, it } from "vitest";
import { NonRetriableError } from "inngest";
import * as qrSortRoute from "@/app/v1/services/studio/agencies/[agencyId]/jobs/[jobId]/qr-sort/route";
import { JobInterruptedError, JobTimeoutError, serializeError } from "@/lib/domain/jobs/job-errors";
import type { FailureContext } from "@/lib/domain/jobs/types";
import { shutDownFaces } from "@/lib/engines/ml/faces";
import { failureMessage as cropFailureMessage } from "@/lib/services/face-crop/job-errors";
import { buildFailureMessage, matchFailureMessage } from "@/lib/services/matching/job-errors";
import { failureMessage as sortFailureMessage } from "@/lib/services/qr-sort/job-errors";
import { faceCrop } from "@/inngest/face-crop";
import { matchFaces } from "@/inngest/face-matching";
import { qrSort } from "@/inngest/qr-sort";
import { call, testAccount } from "../http";
import { balanceOf, ledgerOf } from "./bg-remove-harness";
import { cropUpload, getTask, uploadForm } from "./face-crop-harness";
import * as h from "./matching-harness";
import { faceFixture } from "../support/face-fixtures";

// The batch jobs (Face Crop tasks, match jobs, reference builds, QR sorts) word the
// error that ended their last attempt through failureMessageFor, like every other
// job: the runtime's own errors written for people (a run interrupted by crashes
// too many times, a plain NonRetriableError) are shown as they are, not hidden
// behind the generic sentence as the hand-written messages did. No runner runs in
// this file: each batch stays queued until its failure handler is called as both
// runtimes call it.
afterAll(() => shutDownFaces());

const interrupted = serializeError(new JobInterruptedError(3));
const nonRetriable = serializeError(new NonRetriableError("The photos of this job were deleted; start the job again."));
const internal = serializeError(new TypeError("Cannot read properties of undefined (reading 'embedding')"));
const step = { run: async <T>(_id: string, fn: () => Promise<T> | T) => JSON.parse(JSON.stringify((await fn()) ?? null)) as T };
const failure = <D>(name: string, data: D, error: { name: string; message: string }): FailureContext<D> => ({
  event: { id: "evt", name, data, ts: Date.now() },
  error,
  step,
  runId: "01TEST",
});

describe("batch jobs' failure messages", () => {
  it("show the runtime's human errors (interrupted, NonRetriableError, time limit) and hide everything else", () => {
    expect(interrupted).toEqual({ name: "JobInterruptedError", message: "The job was interrupted 3 times (server restart or crash) and was stopped." });
    expect(nonRetriable.name).toBe("NonRetriableError");
    const timeout = serializeError(new JobTimeoutError(3_600_000));
    const cases = [
      [cropFailureMessage, "The batch stopped because of an error on our side."],
      [matchFailureMessage, "The match job stopped because of an error on our side."],
      [buildFailureMessage, "The build stopped because of an error on our side; run it again (finished embeddings are kept)."],
      [sortFailureMessage, "The sort stopped because of an error on our side; run it again."],
    ] as const;
    for (const [message, generic] of cases) {
      expect(message(interrupted)).toBe(interrupted.message);
      expect(message(nonRetriable)).toBe(nonRetriable.message);
      expect(message(timeout)).toBe(timeout.message);
      expect(message(internal)).toBe(generic);
    }
  });

  it("a Face Crop task interrupted too many times says so, and every file is refunded once", async () => {
    const { token, account } = await testAccount({ tokens: 100 });
    const res = await cropUpload(token, uploadForm([{ name: "a.jpg", bytes: faceFixture("obama.jpg") }, { name: "b.jpg", bytes: faceFixture("biden.jpg") }], { icp_type: "school", enhance: "true" }));
    expect(res.status, res.text).toBe(202);
    const data = { taskId: res.json.task_id as string, accountId: account.id };
    await faceCrop.onFailure(failure("face-crop/task.requested", data, interrupted));
    await faceCrop.onFailure(failure("face-crop/task.requested", data, internal));
    const task = (await getTask(token, data.taskId)).json;
    expect(task).toMatchObject({ status: "failed", error_message: interrupted.message, tokens_refunded: res.json.tokens_deducted });
    expect(await balanceOf(token)).toBe(100);
    expect((await ledgerOf(token)).filter((t) => t.type === "refund")).toHaveLength(1);
  }, 60_000);

  it("a match job ended by a NonRetriableError shows its message, and its photos are refunded once", async () => {
    const { token, account } = await testAccount({ tokens: 100 });
    const agency = await h.makeAgency(token);
    await h.subjectWithPhoto(token, agency.id, "S-OBAMA", "Barack Obama", faceFixture("obama.jpg"));
    expect((await h.buildReferences(token, { agency_id: agency.id })).status).toBe(200);
    const job = await h.makeJobWithPhotos(token, agency.id, [{ name: "p1.jpg", bytes: faceFixture("obama2.jpg") }]);
    const res = await h.startMatchJob(token, { agency_id: agency.id, job_id: job.jobId });
    expect(res.status, res.text).toBe(200);
    const data = { matchJobId: res.json.match_job_id as number, accountId: account.id };
    await matchFaces.onFailure(failure("matching/match-job.requested", data, nonRetriable));
    await matchFaces.onFailure(failure("matching/match-job.requested", data, interrupted));
    expect((await h.getMatchJob(token, data.matchJobId)).json).toMatchObject({ status: "failed", error: nonRetriable.message });
    expect(await balanceOf(token)).toBe(100);
    expect((await ledgerOf(token)).filter((t) => t.type === "refund")).toHaveLength(1);
  }, 120_000);

  it("a QR sort interrupted too many times says so (free: nothing to refund)", async () => {
    const { token, account } = await testAccount({ tokens: 100 });
    const agency = await h.makeAgency(token);
    const job = await h.makeJobWithPhotos(token, agency.id, [{ name: "A_0001.jpg", bytes: faceFixture("obama.jpg") }]);
    const params = { agencyId: String(agency.id), jobId: String(job.jobId) };
    const res = await call(qrSortRoute, "POST", `/v1/services/studio/agencies/${agency.id}/jobs/${job.jobId}/qr-sort`, { token, params });
    expect(res.status, res.text).toBe(202);
    await qrSort.onFailure(failure("qr-sort/task.requested", { taskId: res.json.task_id as string, accountId: account.id }, interrupted));
    expect((await getTask(token, res.json.task_id)).json).toMatchObject({ status: "failed", error: interrupted.message });
    expect(await balanceOf(token)).toBe(100);
  }, 60_000);

  it("a batch that was never committed (the event went out, the transaction rolled back) ends without effect", async () => {
    const { token, account } = await testAccount({ tokens: 100 });
    await expect(faceCrop.onFailure(failure("face-crop/task.requested", { taskId: "task_rolledback", accountId: account.id }, interrupted))).resolves.toBeUndefined();
    await expect(matchFaces.onFailure(failure("matching/match-job.requested", { matchJobId: 2_000_000_000, accountId: account.id }, interrupted))).resolves.toBeUndefined();
    expect(await balanceOf(token)).toBe(100);
    expect((await ledgerOf(token)).filter((t) => t.type === "refund")).toHaveLength(0);
  });
});
