import { afterAll, beforeAll, describe, expect, it } from "vitest";
import sharp from "sharp";
import { testAccount } from "../http";
import { approveFixJob, balanceOf, createFixJob, fetchOwn, getFixJob, ledgerOf, photoLike, pollFixJob, rejectFixJob, reportFor, runFixJob, startTestRunner, stopTestRunner } from "../jobs/fixes-harness";
import { getDb } from "@/lib/foundation/db/client";
import { expireUnreviewedFixJobs } from "@/lib/services/fixes/expire-unreviewed";
import { colouredPagesPdf, PAGE_COLOURS } from "../fixtures/preflight/pdf-fixtures";

// options.review: the job stops at awaiting_approval with its suggestions and
// before/after pictures; approve applies all or a subset, reject ends and
// refunds; every other move is a 409.

const canvas = { canvasWidthInches: 2, canvasHeightInches: 1.6 };

beforeAll(async () => {
  await startTestRunner();
});
afterAll(async () => {
  await stopTestRunner();
});

async function reviewed(token: string) {
  const report = await reportFor(token, await photoLike(300, 240, "png"), canvas);
  const created = await createFixJob(token, { preflightReportId: report.reportId, options: { review: true } });
  expect(created.status, created.text).toBe(202);
  const job = await pollFixJob(token, created.json.data.jobId);
  expect(job.status).toBe("awaiting_approval");
  return job;
}

describe("AI fix job review", () => {
  it("waits with suggestions and before/after pictures; approving all applies them (charged once)", async () => {
    const { token } = await testAccount({ tokens: 1000 });
    const job = await reviewed(token);
    expect(job.suggestions.map((s: any) => s.fixType)).toEqual(["upscale_resolution_2x", "sharpen_edges"]);
    expect(job.suggestions[0]).toMatchObject({ params: { factor: 2 }, description: expect.stringContaining("Lanczos") });
    expect(job.correctedFileUrl).toBeNull();
    expect(job.preview.pages).toEqual([{ page: 1, beforeUrl: expect.any(String), afterUrl: expect.any(String) }]);
    for (const url of [job.preview.beforeUrl, job.preview.afterUrl]) {
      const pic = await fetchOwn(url);
      expect(pic.contentType).toBe("image/jpeg");
      expect((await sharp(pic.body).metadata()).width).toBeGreaterThan(100);
    }
    expect(await balanceOf(token)).toBe(800);
    const approved = await approveFixJob(token, job.jobId);
    expect(approved.status, approved.text).toBe(200);
    expect(approved.json.data.status).toBe("applying");
    const done = await pollFixJob(token, job.jobId);
    expect(done).toMatchObject({ status: "completed", approvedFixTypes: ["upscale_resolution_2x", "sharpen_edges"] });
    expect(done.recheck.resolved).toEqual(["low_resolution"]);
    expect((await sharp((await fetchOwn(done.correctedFileUrl)).body).metadata()).width).toBe(600);
    expect(await balanceOf(token)).toBe(800);
    // Approving again, or rejecting a finished job, is a conflict.
    for (const res of [await approveFixJob(token, job.jobId), await rejectFixJob(token, job.jobId)]) {
      expect(res.status).toBe(409);
      expect(res.json.error).toBe("JOB_NOT_AWAITING_APPROVAL");
    }
  });

  // Issue 33: the review showed page 1 of a PDF only, so what a fix did to page 2 went unseen.
  it("a PDF's review shows every page before and after, each page its own picture", async () => {
    const { token } = await testAccount({ tokens: 1000 });
    const report = await reportFor(token, await colouredPagesPdf(), { canvasWidthInches: 8, canvasHeightInches: 10, productProfile: { bleedMm: 3 } });
    const created = await createFixJob(token, { preflightReportId: report.reportId, options: { fixTypes: ["add_bleed"], review: true } });
    expect(created.status, created.text).toBe(202);
    const job = await pollFixJob(token, created.json.data.jobId);
    expect(job.status, job.errorMessage).toBe("awaiting_approval");
    expect(job.preview.pages.map((p: any) => p.page)).toEqual([1, 2, 3]);
    expect(job.preview.beforeUrl).toBe(job.preview.pages[0].beforeUrl);
    // Each page's picture is that page: its middle pixel is the page's colour, before and after.
    for (const [i, page] of job.preview.pages.entries()) {
      const want = PAGE_COLOURS[i]!;
      for (const url of [page.beforeUrl, page.afterUrl]) {
        const pic = await fetchOwn(url);
        expect(pic.contentType).toBe("image/jpeg");
        const img = sharp(pic.body);
        const { width, height } = await img.metadata();
        const { data } = await img.extract({ left: Math.floor(width! / 2), top: Math.floor(height! / 2), width: 1, height: 1 }).raw().toBuffer({ resolveWithObject: true });
        const rgb = [...data].map((v) => v / 255);
        for (const [c, v] of [want.red, want.green, want.blue].entries()) expect(Math.abs(rgb[c]! - v)).toBeLessThan(0.1);
      }
    }
    const approved = await approveFixJob(token, job.jobId);
    expect(approved.status, approved.text).toBe(200);
    const done = await pollFixJob(token, job.jobId);
    expect(done.status).toBe("completed");
    expect(done.preview.pages.map((p: any) => [p.page, !!p.beforeUrl, !!p.afterUrl])).toEqual([[1, true, true], [2, true, true], [3, true, true]]);
  });

  it("approving a subset applies only that subset; a fix that was not suggested is a 400", async () => {
    const { token } = await testAccount({ tokens: 1000 });
    const job = await reviewed(token);
    const wrong = await approveFixJob(token, job.jobId, { fixTypes: ["convert_color_mode"] });
    expect(wrong.status).toBe(400);
    expect(wrong.json).toMatchObject({ error: "FIX_NOT_SUGGESTED", details: { field: "fixTypes", fixType: "convert_color_mode" } });
    const res = await approveFixJob(token, job.jobId, { fixTypes: ["sharpen_edges"] });
    expect(res.status, res.text).toBe(200);
    const done = await pollFixJob(token, job.jobId);
    expect(done.status).toBe("completed");
    expect(done.fixesApplied.map((f: any) => f.fixType)).toEqual(["sharpen_edges"]);
    // Sharpening alone does not raise the resolution: the re-check says so.
    expect(done.recheck.remaining).toEqual(["low_resolution"]);
    // An upscale exists for it, merely not approved: not listed as beyond an AI fix.
    expect(done.recheck.notFixable).toEqual([]);
    expect((await sharp((await fetchOwn(done.correctedFileUrl)).body).metadata()).width).toBe(300);
  });

  it("reject ends the job and refunds it once; approving or rejecting it afterwards is a 409", async () => {
    const { token } = await testAccount({ tokens: 1000 });
    const job = await reviewed(token);
    const res = await rejectFixJob(token, job.jobId);
    expect(res.status, res.text).toBe(200);
    expect(res.json.data).toMatchObject({ status: "rejected", correctedFileUrl: null });
    expect(await balanceOf(token)).toBe(1000);
    for (const again of [await rejectFixJob(token, job.jobId), await approveFixJob(token, job.jobId)]) expect(again.status).toBe(409);
    expect(await balanceOf(token)).toBe(1000);
    expect((await ledgerOf(token)).filter((t) => t.type === "refund")).toHaveLength(1);
  });

  it("a job created without review runs straight through: approve and reject are 409", async () => {
    const { token } = await testAccount({ tokens: 1000 });
    const report = await reportFor(token, await photoLike(300, 240, "png"), canvas);
    const job = await runFixJob(token, { preflightReportId: report.reportId });
    expect(job.status).toBe("completed");
    expect((await approveFixJob(token, job.jobId)).status).toBe(409);
    expect((await rejectFixJob(token, job.jobId)).status).toBe(409);
    const bad = await approveFixJob(token, job.jobId, { fixTypes: "all" });
    expect(bad.status).toBe(400);
  });

  it("a job nobody reviews expires after AI_FIX_REVIEW_HOURS (72): failed with a message, refunded once, no longer approvable", async () => {
    const { token } = await testAccount({ tokens: 1000 });
    const job = await reviewed(token);
    expect(await balanceOf(token)).toBe(800);
    const db = await getDb();
    const hoursFromNow = (h: number) => new Date(Date.now() + h * 3_600_000);
    await expireUnreviewedFixJobs(db, hoursFromNow(71));
    expect((await getFixJob(token, job.jobId)).json.data.status).toBe("awaiting_approval");
    expect(await expireUnreviewedFixJobs(db, hoursFromNow(73))).toBeGreaterThanOrEqual(1);
    const expired = (await getFixJob(token, job.jobId)).json.data;
    expect(expired.status).toBe("failed");
    expect(expired.errorMessage).toMatch(/within 72 hours, so it expired and its tokens were refunded/);
    expect(await balanceOf(token)).toBe(1000);
    // A second sweep refunds nothing more, and the expired job cannot be approved.
    await expireUnreviewedFixJobs(db, hoursFromNow(100));
    expect(await balanceOf(token)).toBe(1000);
    expect((await ledgerOf(token)).filter((t) => t.type === "refund")).toHaveLength(1);
    expect((await approveFixJob(token, job.jobId)).status).toBe(409);
  });
});
