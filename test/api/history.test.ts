import { afterAll, beforeAll, describe, expect, it } from "vitest";
import sharp from "sharp";
import * as bgRemoveList from "@/app/v1/services/bg-remove/route";
import * as bgRemoveJob from "@/app/v1/services/bg-remove/[jobId]/route";
import * as qrGenerate from "@/app/v1/services/studio/qr/generate/route";
import * as qrGenerations from "@/app/v1/services/studio/qr/generations/route";
import * as qrGeneration from "@/app/v1/services/studio/qr/generations/[generationId]/route";
import * as faceCrop from "@/app/v1/services/studio/face-crop/route";
import * as faceTasks from "@/app/v1/services/studio/jobs/route";
import * as checks from "@/app/v1/services/preflight/checks/route";
import * as aiJobs from "@/app/v1/services/preflight/ai-jobs/route";
import * as served from "@/app/files/[...key]/route";
import { faceFixture } from "../support/face-fixtures";
import { call, testAccount } from "../http";
import { createJob, fixture, pollJob, startTestRunner, stopAll, upload } from "../jobs/bg-remove-harness";

// Every billed operation has a history: the account's own work, newest first, in
// the contract's list envelope, filtered by status; another account sees none of it.

beforeAll(async () => {
  await startTestRunner();
});
afterAll(stopAll);

async function fetchServed(url: string) {
  const u = new URL(url);
  const res = await served.GET(new Request(u), { params: Promise.resolve({ key: u.pathname.replace(/^\/files\//, "").split("/") }) });
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
}

const ENVELOPE = { data: expect.any(Array), links: { first: expect.any(String), last: expect.any(String) }, meta: { path: expect.any(String), per_page: expect.any(Number) }, message: expect.any(String) };

describe("GET /v1/services/bg-remove", () => {
  it("lists the account's jobs newest first with settings, pictures and a download that downloads; filters by status", async () => {
    const A = await testAccount({ tokens: 1000 });
    const B = await testAccount({ tokens: 1000 });
    const imageUrl = await upload(A.token, fixture("astronaut.png"), "astronaut.png");
    const first = await createJob(A.token, { image_url: imageUrl, subject_type: "person", edge_softness: 5 });
    expect(first.status).toBe(202);
    await pollJob(A.token, first.json.job_id);
    // Not an image: fails and is refunded.
    const notImage = await upload(A.token, Buffer.from("just text, not a picture"), "notes.png", "image/png").catch(() => null);
    const secondBody = notImage ? { image_url: notImage } : { image_url: imageUrl, output_background: "white" };
    const second = await createJob(A.token, secondBody);
    expect(second.status).toBe(202);
    const secondJob = await pollJob(A.token, second.json.job_id);

    const list = await call(bgRemoveList, "GET", "/v1/services/bg-remove", { token: A.token });
    expect(list.status, list.text).toBe(200);
    expect(list.json).toMatchObject(ENVELOPE);
    expect(list.json.meta.total).toBe(2);
    expect(list.json.data.map((j: { job_id: string }) => j.job_id)).toEqual([second.json.job_id, first.json.job_id]);
    const done = list.json.data[1];
    expect(done).toMatchObject({ status: "completed", subject_type: "person", edge_softness: 5, output_url: expect.any(String), download_url: expect.any(String), source_url: expect.any(String) });

    // The download URL is an attachment; the output URL shows inline; the source is the upload, readable.
    const dl = await fetchServed(done.download_url);
    expect(dl.res.status).toBe(200);
    expect(dl.res.headers.get("content-disposition")).toMatch(/^attachment; filename="astronaut-cutout\.png"/);
    expect((await sharp(dl.bytes).metadata()).format).toBe("png");
    expect((await fetchServed(done.output_url)).res.headers.get("content-disposition")).toBe("inline");
    expect((await fetchServed(done.source_url)).res.status).toBe(200);

    const completed = await call(bgRemoveList, "GET", "/v1/services/bg-remove?status=completed", { token: A.token });
    const expectCompleted = secondJob.status === "completed" ? 2 : 1;
    expect(completed.json.meta.total).toBe(expectCompleted);
    expect(completed.json.data.every((j: { status: string }) => j.status === "completed")).toBe(true);
    if (secondJob.status === "failed") {
      const failed = await call(bgRemoveList, "GET", "/v1/services/bg-remove?status=failed", { token: A.token });
      expect(failed.json.data).toMatchObject([{ job_id: second.json.job_id, status: "failed", output_url: null, download_url: null }]);
    }

    const paged = await call(bgRemoveList, "GET", "/v1/services/bg-remove?limit=1&page=2", { token: A.token });
    expect(paged.json.data.map((j: { job_id: string }) => j.job_id)).toEqual([first.json.job_id]);
    expect(paged.json.links.prev).toContain("page=1");

    const bad = await call(bgRemoveList, "GET", "/v1/services/bg-remove?status=done", { token: A.token });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain("status");

    // Another account: an empty history, and A's job is a 404.
    const other = await call(bgRemoveList, "GET", "/v1/services/bg-remove", { token: B.token });
    expect(other.json).toMatchObject({ data: [], meta: { total: 0 } });
    const peek = await call(bgRemoveJob, "GET", `/v1/services/bg-remove/${first.json.job_id}`, { token: B.token, params: { jobId: first.json.job_id } });
    expect(peek.status).toBe(404);
  }, 300_000);
});

describe("GET /v1/services/studio/qr/generations", () => {
  it("lists Bulk QR runs with their settings and a PDF that stays reachable; one run by id; another account gets 404", async () => {
    const A = await testAccount({ tokens: 100 });
    const B = await testAccount({ tokens: 100 });
    const subjects = [1, 2, 3].map((i) => ({ student_id: `S${i}`, name: `Student ${i}` }));
    const one = await call(qrGenerate, "POST", "/v1/services/studio/qr/generate", { token: A.token, body: { job_id: "SPRING-2026", subjects } });
    expect(one.status, one.text).toBe(200);
    const two = await call(qrGenerate, "POST", "/v1/services/studio/qr/generate", { token: A.token, body: { job_id: "FALL 2026", page_size: "a4", subjects: subjects.slice(0, 2) } });
    expect(two.status, two.text).toBe(200);

    const list = await call(qrGenerations, "GET", "/v1/services/studio/qr/generations", { token: A.token });
    expect(list.status, list.text).toBe(200);
    expect(list.json).toMatchObject(ENVELOPE);
    expect(list.json.data).toMatchObject([
      { id: two.json.id, job_id: "FALL 2026", status: "completed", layout: "4up", page_size: "a4", total_subjects: 2, pages: 1, tokens_deducted: 2, wallet_transaction_id: two.json.wallet_transaction_id },
      { id: one.json.id, job_id: "SPRING-2026", page_size: "letter", total_subjects: 3, tokens_deducted: 3 },
    ]);
    const pdf = await fetchServed(list.json.data[0].download_url);
    expect(pdf.res.headers.get("content-disposition")).toMatch(/^attachment; filename="qr-cards-FALL-2026\.pdf"/);
    expect(pdf.bytes.subarray(0, 5).toString()).toBe("%PDF-");
    expect((await fetchServed(list.json.data[0].pdf_url)).res.headers.get("content-disposition")).toBe("inline");

    const get = await call(qrGeneration, "GET", `/v1/services/studio/qr/generations/${one.json.id}`, { token: A.token, params: { generationId: one.json.id } });
    expect(get.status).toBe(200);
    expect(get.json).toMatchObject({ id: one.json.id, job_id: "SPRING-2026", status: "completed" });
    expect((await call(qrGenerations, "GET", "/v1/services/studio/qr/generations?status=failed", { token: A.token })).json.meta.total).toBe(0);

    const peek = await call(qrGeneration, "GET", `/v1/services/studio/qr/generations/${one.json.id}`, { token: B.token, params: { generationId: one.json.id } });
    expect(peek.status).toBe(404);
    expect(peek.json.error).toBe("NOT_FOUND");
    expect((await call(qrGenerations, "GET", "/v1/services/studio/qr/generations", { token: B.token })).json).toMatchObject({ data: [], meta: { total: 0 } });
  });
});

describe("GET /v1/services/studio/jobs (Face Crop tasks)", () => {
  it("lists tasks newest first with thumbnails of the crops; another account sees none", async () => {
    const A = await testAccount({ tokens: 100 });
    const B = await testAccount({ tokens: 100 });
    const portrait = await upload(A.token, faceFixture("obama.jpg"), "obama.jpg", "image/jpeg");
    const crop = await call(faceCrop, "POST", "/v1/services/studio/face-crop", { token: A.token, body: { image_url: portrait, icp_type: "school" } });
    expect(crop.status, crop.text).toBe(200);

    const list = await call(faceTasks, "GET", "/v1/services/studio/jobs", { token: A.token });
    expect(list.status, list.text).toBe(200);
    expect(list.json).toMatchObject(ENVELOPE);
    expect(list.json.data).toMatchObject([
      { task_id: crop.json.task_id, status: "completed", icp_type: "school", enhance: false, total_files: 1, completed_files: 1, failed_files: 0, tokens_deducted: 2, thumbnails: [{ result_id: crop.json.results[0].result_id, filename: expect.any(String) }] },
    ]);
    const thumb = await fetchServed(list.json.data[0].thumbnails[0].url);
    expect(thumb.res.status).toBe(200);
    expect((await sharp(thumb.bytes).metadata()).format).toBe("jpeg");
    expect((await call(faceTasks, "GET", "/v1/services/studio/jobs?status=running", { token: A.token })).json.meta.total).toBe(0);
    expect((await call(faceTasks, "GET", "/v1/services/studio/jobs?status=nope", { token: A.token })).status).toBe(400);
    expect((await call(faceTasks, "GET", "/v1/services/studio/jobs", { token: B.token })).json).toMatchObject({ data: [], meta: { total: 0 } });
  });
});

describe("GET /v1/services/preflight/ai-jobs", () => {
  it("lists AI fix jobs newest first with their report and settings; another account sees none", async () => {
    const A = await testAccount({ tokens: 1000 });
    const B = await testAccount({ tokens: 1000 });
    const png = await sharp({ create: { width: 300, height: 200, channels: 3, background: "#c84" } }).png().toBuffer();
    const fileUrl = await upload(A.token, png, "small.png");
    const report = await call(checks, "POST", "/v1/services/preflight/checks", { token: A.token, body: { designId: "history", fileUrl } });
    expect(report.status, report.text).toBe(201);
    const job = await call(aiJobs, "POST", "/v1/services/preflight/ai-jobs", { token: A.token, body: { preflightReportId: report.json.data.reportId, options: { fixTypes: ["sharpen_edges"], review: true } } });
    expect(job.status, job.text).toBe(202);

    const list = await call(aiJobs, "GET", "/v1/services/preflight/ai-jobs", { token: A.token });
    expect(list.status, list.text).toBe(200);
    expect(list.json).toMatchObject(ENVELOPE);
    expect(list.json.data).toMatchObject([{ jobId: job.json.data.jobId, preflightReportId: report.json.data.reportId, fixTypes: ["sharpen_edges"], tokensDeducted: 200 }]);
    expect((await call(aiJobs, "GET", "/v1/services/preflight/ai-jobs?status=rejected", { token: A.token })).json.meta.total).toBe(0);
    expect((await call(aiJobs, "GET", "/v1/services/preflight/ai-jobs?status=done", { token: A.token })).status).toBe(400);
    expect((await call(aiJobs, "GET", "/v1/services/preflight/ai-jobs", { token: B.token })).json).toMatchObject({ data: [], meta: { total: 0 } });
  });
});
