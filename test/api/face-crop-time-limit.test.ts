import { afterAll, describe, expect, it } from "vitest";
import { stopJobRunner } from "@/lib/domain/jobs/runner/runner-instance";
import { testAccount } from "../http";
import { balanceOf, ledgerOf, startTestRunner, stopAll } from "../jobs/bg-remove-harness";
import { cropUpload, pollTask, uploadForm } from "../jobs/face-crop-harness";
import { faceFixture } from "../support/face-fixtures";

// No task stays queued or running with its tokens kept: past its time limit
// (lowered to 2 s for this file, read when the job module loads) the task fails
// and every file not cropped is refunded, by one refund row.
process.env.FACE_CROP_TIME_LIMIT_SECONDS = "2";

afterAll(stopAll);

describe("Face Crop task time limit", () => {
  it("a task that waited past its limit (no runner was up) fails, and all its files are refunded once", async () => {
    await stopJobRunner({ drainMs: 0 });
    const { token } = await testAccount({ tokens: 100 });
    const parts = Array.from({ length: 9 }, (_, i) => ({ name: `p${i}.jpg`, bytes: faceFixture("obama.jpg") }));
    const res = await cropUpload(token, uploadForm(parts));
    expect(res.status).toBe(202);
    expect(await balanceOf(token)).toBe(82);
    await new Promise((r) => setTimeout(r, 2_500));
    await startTestRunner();
    const task = await pollTask(token, res.json.task_id, 30_000);
    expect(task).toMatchObject({ status: "failed", tokens_deducted: 0, tokens_refunded: 18, progress: { current: 9, total: 9, percentage: 100 } });
    expect(task.error_message).toMatch(/time limit/);
    expect(task.results.every((r: { error?: { code: string } }) => r.error?.code === "PROCESSING_FAILED")).toBe(true);
    expect(await balanceOf(token)).toBe(100);
    const refunds = (await ledgerOf(token)).filter((t) => t.type === "refund");
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ amount: 18, refund_of: res.json.wallet_transaction_id });
  }, 60_000);
});
