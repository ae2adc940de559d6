import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { config } from "@/lib/foundation/config";
import { getDb } from "@/lib/foundation/db/client";
import { resetPreflightConfig } from "@/lib/services/preflight/preflight-config";
import { usedChecks } from "@/lib/services/preflight/quota";
import { heapHeavyPdf, manyPagesPdf } from "../fixtures/preflight/pdf-fixtures";
import { hugeBlankPng } from "../fixtures/preflight/huge-png";
import { createCheck, listReports, uploadBytes } from "../fixtures/preflight/api";
import { testAccount } from "../http";

let token = "";
let accountId = "";
let bigPdfUrl = "";

beforeAll(async () => {
  const a = await testAccount({ plan: "premium" });
  token = a.token;
  accountId = a.account.id;
  bigPdfUrl = await uploadBytes(token, await manyPagesPdf(2000));
}, 120_000);

afterEach(() => {
  for (const k of ["PREFLIGHT_TIMEOUT_MS", "PREFLIGHT_MAX_PDF_PAGES", "PREFLIGHT_WORKER_MEMORY_MB"]) delete process.env[k];
  resetPreflightConfig();
});

function setEnv(vars: Record<string, string>) {
  Object.assign(process.env, vars);
  resetPreflightConfig();
}

/** Runs `work` while sampling the event loop every 10 ms; returns the longest stall seen. */
async function withLoopWatch<T>(work: () => Promise<T>): Promise<{ result: T; maxStallMs: number; totalMs: number }> {
  let last = performance.now();
  let maxStallMs = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    maxStallMs = Math.max(maxStallMs, now - last - 10);
    last = now;
  }, 10);
  const started = performance.now();
  try {
    const result = await work();
    return { result, maxStallMs, totalMs: performance.now() - started };
  } finally {
    clearInterval(timer);
  }
}

function storedPreflightFiles(): string[] {
  const dir = path.join(config().dataDir, "files", "preflight", accountId);
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
}

describe("large and hostile files", () => {
  it("checks a 2,000-page PDF off the event loop", async () => {
    const { result: res, maxStallMs, totalMs } = await withLoopWatch(() => createCheck(token, { designId: "2000 pages", fileUrl: bigPdfUrl, canvasWidthInches: 8, canvasHeightInches: 10 }));
    expect(res.status, res.text).toBe(201);
    expect(res.json.data).toMatchObject({ status: "pass", issues: [], file: { pageCount: 2000 } });
    // The report keeps the boxes of the first 500 pages for the viewer, not all 2,000.
    expect(res.json.data.file.pages).toHaveLength(500);
    // Parsing 2,000 pages takes seconds of CPU; none of it may stall the server's loop.
    expect(maxStallMs).toBeLessThan(Math.max(400, totalMs / 4));
  }, 120_000);

  it("reports a PDF over the page limit as too_many_pages", async () => {
    setEnv({ PREFLIGHT_MAX_PDF_PAGES: "1000" });
    const res = await createCheck(token, { designId: "too many", fileUrl: bigPdfUrl });
    expect(res.status).toBe(201);
    expect(res.json.data.status).toBe("fail");
    expect(res.json.data.issues).toEqual([
      expect.objectContaining({ code: "too_many_pages", severity: "error", message: "The PDF has 2,000 pages; preflight checks documents of up to 1,000 pages.", details: { pageCount: 2000, maxPages: 1000 } }),
    ]);
  }, 60_000);

  it("stops an analysis at the time limit with 422 PREFLIGHT_TIMEOUT, keeping nothing and counting nothing", async () => {
    setEnv({ PREFLIGHT_TIMEOUT_MS: "30" });
    const before = await usedChecks(await getDb(), accountId);
    const reports = (await listReports(token)).json.meta.total;
    const files = storedPreflightFiles().length;
    const res = await createCheck(token, { designId: "slow", fileUrl: bigPdfUrl });
    expect(res.status).toBe(422);
    expect(res.json).toMatchObject({ error: "PREFLIGHT_TIMEOUT", details: { limit_ms: 30 } });
    expect(res.json.message).toContain("took longer than 30 ms");
    expect(await usedChecks(await getDb(), accountId)).toBe(before);
    expect((await listReports(token)).json.meta.total).toBe(reports);
    expect(storedPreflightFiles()).toHaveLength(files);
  }, 60_000);

  it("stops an analysis that needs more than the worker's heap with 422 PREFLIGHT_TOO_COMPLEX", async () => {
    setEnv({ PREFLIGHT_WORKER_MEMORY_MB: "64" });
    const url = await uploadBytes(token, await heapHeavyPdf());
    const res = await createCheck(token, { designId: "heavy", fileUrl: url });
    expect(res.status).toBe(422);
    expect(res.json).toMatchObject({ error: "PREFLIGHT_TOO_COMPLEX", details: { limit_mb: 64 } });
  }, 120_000);

  it("reads the header of a 20,000 x 20,000 PNG without decoding it, off the event loop", async () => {
    const url = await uploadBytes(token, hugeBlankPng(20_000, 20_000));
    const { result: res, maxStallMs } = await withLoopWatch(() => createCheck(token, { designId: "huge", fileUrl: url, canvasWidthInches: 40, canvasHeightInches: 40 }));
    expect(res.status).toBe(201);
    expect(res.json.data.file).toEqual({ widthPx: 20_000, heightPx: 20_000 });
    expect(res.json.data.issues.map((i: { code: string }) => i.code)).toEqual(["image_too_large"]);
    expect(maxStallMs).toBeLessThan(400);
  }, 60_000);

  it("keeps working normally after workers were stopped", async () => {
    const res = await createCheck(token, { designId: "after", fileUrl: bigPdfUrl, canvasWidthInches: 8, canvasHeightInches: 10 });
    expect(res.status).toBe(201);
    expect(res.json.data.status).toBe("pass");
  }, 60_000);
});
