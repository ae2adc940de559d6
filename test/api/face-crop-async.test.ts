import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/lib/foundation/db/client";
import { faceCropItems } from "@/lib/foundation/db/schema";
import { storage } from "@/lib/domain/storage";
import { stopJobRunner } from "@/lib/domain/jobs/runner/runner-instance";
import { finishTask } from "@/lib/services/face-crop/finish-task";
import { faceCrop } from "@/inngest/face-crop";
import { shutDownSuperResolution } from "@/lib/engines/ml/super-resolution";
import { testAccount } from "../http";
import sharp from "sharp";
import { balanceOf, ledgerOf, startTestRunner, stopAll, upload } from "../jobs/bg-remove-harness";
import { cropUpload, cropUrls, getTask, pollTask, uploadForm, type Part } from "../jobs/face-crop-harness";
import { faceFixture } from "../support/face-fixtures";

// Larger uploads and every enhance request become tasks (202) that the job runner
// crops: billed per file, refunded once for the files that failed, followed through
// GET /studio/jobs/{id}. Super-resolution is limited to crops of 0.14 MP here, so
// only the one small portrait gets it (the model costs seconds a crop).
process.env.FACE_SR_MAX_INPUT_MEGAPIXELS = "0.14";
beforeAll(() => startTestRunner());
afterAll(async () => {
  await stopAll();
  await shutDownSuperResolution();
});

// obama_partial_face.jpg is not here: the photo cuts that face (FACE_CUT_BY_EDGE, tested in face-crop.test.ts).
const FACES = ["obama.jpg", "obama2.jpg", "biden.jpg", "two_people.jpg", "obama-1080p.jpg", "obama_and_biden.jpg", "obama3.jpg"];
const faces = (n: number): Part[] => Array.from({ length: n }, (_, i) => ({ name: `face-${i}-${FACES[i % FACES.length]}`, bytes: faceFixture(FACES[i % FACES.length]!) }));
const cups = (n: number): Part[] => Array.from({ length: n }, (_, i) => ({ name: `cup-${i}.jpg`, bytes: faceFixture("coffee.jpg") }));

describe("Face Crop tasks (202)", () => {
  it("bills a mixed batch per file: debit at acceptance, one refund of the no-face files when the task ends", async () => {
    const { token } = await testAccount({ tokens: 100 });
    const other = await testAccount({ tokens: 100 });
    const res = await cropUpload(token, uploadForm([...faces(8), ...cups(3), { name: "notes.jpg", bytes: Buffer.from("plain text") }]));
    expect(res.status).toBe(202);
    expect(res.json).toMatchObject({ task_id: expect.stringMatching(/^task_/), status: "queued", total_files: 12, tokens_deducted: 22, wallet_transaction_id: expect.stringMatching(/^wtx_/) });
    expect(await balanceOf(token)).toBe(78);
    expect((await getTask(other.token, res.json.task_id)).status).toBe(404);

    const task = await pollTask(token, res.json.task_id);
    expect(task).toMatchObject({ status: "completed", total_files: 12, progress: { current: 12, total: 12, percentage: 100 }, tokens_deducted: 16, tokens_refunded: 6 });
    const codes = task.results.map((r: { error?: { code: string } }) => r.error?.code ?? "ok");
    expect(codes).toEqual([...Array(8).fill("ok"), "NO_FACE_FOUND", "NO_FACE_FOUND", "NO_FACE_FOUND", "UNSUPPORTED_FILE_TYPE"]);
    expect(task.results[0]).toMatchObject({ icp_type: "school", output_urls: { original: expect.any(String), medium: expect.any(String) } });
    expect(await balanceOf(token)).toBe(84);
    const refunds = (await ledgerOf(token)).filter((t) => t.type === "refund");
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ amount: 6, refund_of: res.json.wallet_transaction_id });
  }, 120_000);

  it("with enhance: 6 tokens a file, refunded the same way; a small crop gets super-resolution, larger ones Lanczos, a face too small for the print is refused and refunded", async () => {
    const { token } = await testAccount({ tokens: 100 });
    // School crops: 480 x 600 → about 324 x 405 (SR, then to 1200 x 1500); 200 x 250 → about 135 x 169, under the 300 x 375 that 4x reaches.
    const small = await sharp(faceFixture("obama.jpg")).resize(480, 600).jpeg().toBuffer();
    const tiny = await sharp(faceFixture("obama.jpg")).resize(200, 250).jpeg().toBuffer();
    const files = [{ name: "small.jpg", bytes: small }, { name: "tiny.jpg", bytes: tiny }, { name: "obama.jpg", bytes: faceFixture("obama.jpg") }, { name: "obama2.jpg", bytes: faceFixture("obama2.jpg") }, ...cups(2)];
    const res = await cropUpload(token, uploadForm(files, { icp_type: "school", enhance: "true" }));
    expect(res.status).toBe(202);
    expect(res.json.tokens_deducted).toBe(36);
    const task = await pollTask(token, res.json.task_id);
    expect(task).toMatchObject({ status: "completed", tokens_deducted: 18, tokens_refunded: 18 });
    expect(task.results.map((r: { enhancement?: string; error?: { code: string } }) => r.enhancement ?? r.error?.code)).toEqual([
      "super_resolution_2x",
      "FACE_TOO_SMALL_FOR_PRINT",
      "upscaled_lanczos_sharpened",
      "upscaled_lanczos_sharpened",
      "NO_FACE_FOUND",
      "NO_FACE_FOUND",
    ]);
    // The reason says what the print needs and how large the face would have to be.
    expect(task.results[1].error.message).toMatch(/1200 × 1500 px.*at least 300 × 375 px.*at least 188 px from chin to crown.*not charged/);
    // Enlarged to the preset's print size (4 x 5 in at 300 ppi).
    expect(task.results[0].output_size).toEqual({ width: 1200, height: 1500 });
    expect(await balanceOf(token)).toBe(82);
    const refunds = (await ledgerOf(token)).filter((t) => t.type === "refund");
    expect(refunds).toMatchObject([{ amount: 18, refund_of: res.json.wallet_transaction_id }]);
  }, 180_000);

  it("the URL form with enhance runs as a task too", async () => {
    const { token } = await testAccount({ tokens: 100 });
    const res = await cropUrls(token, { image_url: await upload(token, faceFixture("obama.jpg"), "ava.jpg", "image/jpeg"), icp_type: "corporate", enhance: true });
    expect(res.status).toBe(202);
    const task = await pollTask(token, res.json.task_id);
    expect(task).toMatchObject({ status: "completed", tokens_deducted: 6, results: [{ icp_type: "corporate", enhancement: "upscaled_lanczos_sharpened" }] });
  }, 120_000);

  it("a file lost after acceptance fails alone and is refunded; ending the task again refunds nothing more", async () => {
    await stopJobRunner({ drainMs: 0 });
    const { token, account } = await testAccount({ tokens: 100 });
    const res = await cropUpload(token, uploadForm(faces(9)));
    expect(res.status).toBe(202);
    // Injected failure: one stored source disappears before the runner gets to it.
    const db = await getDb();
    const [victim] = await db.select().from(faceCropItems).where(and(eq(faceCropItems.taskId, res.json.task_id), eq(faceCropItems.position, 4)));
    await storage().delete(victim!.sourceKey!);
    await startTestRunner();
    const task = await pollTask(token, res.json.task_id);
    expect(task.results[4].error.code).toBe("SOURCE_MISSING");
    expect(task).toMatchObject({ status: "completed", tokens_deducted: 16, tokens_refunded: 2 });
    expect(await balanceOf(token)).toBe(84);
    // A retried finish and a late failure handler change nothing: one refund per debit.
    await finishTask(db, { taskId: res.json.task_id, accountId: account.id, outcome: "completed" });
    await faceCrop.onFailure({
      event: { id: "x", name: "face-crop/task.requested", data: { taskId: res.json.task_id, accountId: account.id }, ts: Date.now() },
      error: { name: "Error", message: "late" },
      step: { run: async (_id, fn) => fn() },
      runId: "test",
    });
    expect(await balanceOf(token)).toBe(84);
    expect((await ledgerOf(token)).filter((t) => t.type === "refund")).toHaveLength(1);
  }, 120_000);
});
