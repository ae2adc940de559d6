import http from "node:http";
import os from "node:os";
import fs from "node:fs";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import sharp from "sharp";
import { eq } from "drizzle-orm";
import { getDb } from "@/lib/foundation/db/client";
import { bgRemoveJobs } from "@/lib/foundation/db/schema";
import { resetConfig } from "@/lib/foundation/config";
import { storage } from "@/lib/domain/storage";
import { failBgRemoveJob } from "@/lib/services/bg-remove/finish-job";
import { sourceCopyKey } from "@/lib/services/bg-remove/storage-keys";
import { shutDownBackgroundRemoval } from "@/lib/engines/ml/background-removal";
import { testAccount } from "../http";
import { balanceOf, createJob, fixture, ledgerOf, pollJob, startTestRunner, stopAll, upload } from "../jobs/bg-remove-harness";

// Every way a background removal can fail after acceptance ends `failed` with a
// message for people and exactly one refund that references the debit.
// A local HTTP server plays the caller's image host (FETCH_ALLOW_HOSTS lets the
// safe fetcher reach it); the engine's pixel limit is lowered to 0.5 MP so an
// "oversized" image stays small.
process.env.FETCH_ALLOW_HOSTS = "127.0.0.1";
process.env.BG_REMOVAL_MAX_MEGAPIXELS = "0.5";
resetConfig();

const hits = new Map<string, number>();
let base = "";
let closedPort = 0;
const server = http.createServer((req, res) => {
  const url = req.url ?? "/";
  hits.set(url, (hits.get(url) ?? 0) + 1);
  if (url === "/missing.png") return void res.writeHead(404).end("not here");
  if (url === "/flaky.png") return void res.writeHead(503).end("try later");
  if (url === "/page.png") return void res.writeHead(200, { "content-type": "image/png" }).end("<html><body>Not an image</body></html>");
  if (url === "/truncated.jpg") return void res.writeHead(200, { "content-type": "image/jpeg" }).end(truncatedJpeg);
  if (url === "/huge.png") return void res.writeHead(200, { "content-type": "image/png" }).end(hugePng);
  if (url === "/small.png") return void res.writeHead(200, { "content-type": "image/png" }).end(smallPng);
  res.writeHead(404).end();
});

let truncatedJpeg: Buffer;
let hugePng: Buffer;
let smallPng: Buffer;

beforeAll(async () => {
  const jpeg = await sharp(fixture("coffee.png")).jpeg({ quality: 90 }).toBuffer();
  truncatedJpeg = jpeg.subarray(0, Math.floor(jpeg.length * 0.4));
  hugePng = await sharp(fixture("astronaut.png")).resize(1000, 1000).png().toBuffer(); // 1 MP > 0.5 MP
  smallPng = await sharp(fixture("coffee.png")).resize(150).png().toBuffer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // A port that was open a moment ago and is now closed: connection refused.
  const probe = http.createServer();
  await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise<void>((r) => probe.close(() => r()));
  await startTestRunner();
});

afterAll(async () => {
  await stopAll();
  await new Promise<void>((r) => server.close(() => r()));
});

/** Runs one job to its end and checks the failure contract: message, one refund of the debit. */
async function expectFailedAndRefunded(imageUrl: string, message: RegExp) {
  const { token } = await testAccount({ tokens: 500 });
  const created = await createJob(token, { image_url: imageUrl });
  expect(created.status).toBe(202);
  expect(await balanceOf(token)).toBe(350);
  const job = await pollJob(token, created.json.job_id);
  expect(job).toMatchObject({ status: "failed", output_url: null, completed_at: null });
  expect(job.error_message).toMatch(message);
  expect(job.error_message).not.toMatch(/at \w+ \(|node_modules|\.ts:\d/); // no internals
  expect(await balanceOf(token)).toBe(500);
  const ledger = await ledgerOf(token);
  const refunds = ledger.filter((t) => t.type === "refund");
  expect(refunds).toHaveLength(1);
  expect(refunds[0]).toMatchObject({
    amount: 150,
    refund_of: created.json.wallet_transaction_id,
    operation: "bg_remove",
    reference: created.json.job_id,
    balance_after: 500,
  });
  expect(refunds[0].note).toContain(created.json.job_id);
  return { token, job, created };
}

describe("failed background removals are refunded exactly once", () => {
  // First in the file: the engine has not started a worker yet, and from a
  // folder without the worker and the model the engine cannot start at all.
  it("the engine cannot start (model missing): retried, then failed with a message for people", async () => {
    const cwd = process.cwd();
    const { token } = await testAccount({ tokens: 500 });
    const imageUrl = await upload(token, smallPng);
    process.chdir(fs.mkdtempSync(path.join(os.tmpdir(), "no-model-")));
    try {
      const { job } = await expectFailedAndRefunded(imageUrl, /on our side/);
      expect(job.error_message).toBe("The background removal engine failed on our side while processing this image.");
    } finally {
      process.chdir(cwd);
      // The engine keeps the worker path it computed; no worker ever started, so dropping it is safe.
      await shutDownBackgroundRemoval();
    }
  }, 120_000);

  it("source answers 404: not retried", async () => {
    await expectFailedAndRefunded(`${base}/missing.png`, /Could not get the image from image_url: The source URL answered 404/);
    expect(hits.get("/missing.png")).toBe(1);
  });

  it("source keeps answering 503: retried (3 attempts), then failed", async () => {
    await expectFailedAndRefunded(`${base}/flaky.png`, /answered 503/);
    expect(hits.get("/flaky.png")).toBe(3);
  });

  it("source unreachable (connection refused)", async () => {
    await expectFailedAndRefunded(`http://127.0.0.1:${closedPort}/x.png`, /could not be reached/);
  });

  it("not an image (an HTML page served as image/png)", async () => {
    await expectFailedAndRefunded(`${base}/page.png`, /not an image/i);
  }, 120_000);

  it("a corrupt image (a JPEG cut off at 40%)", async () => {
    await expectFailedAndRefunded(`${base}/truncated.jpg`, /damaged|incomplete|truncated|corrupt|cannot be read|could not be read/i);
  }, 120_000);

  it("over the pixel limit", async () => {
    await expectFailedAndRefunded(`${base}/huge.png`, /1000 × 1000 pixels.*0\.5 megapixels/);
  }, 120_000);

  it("an upload over the pixel limit is refused at acceptance, naming image_url, and nothing is charged", async () => {
    const { token } = await testAccount({ tokens: 1000 });
    const url = await upload(token, hugePng, "huge.png");
    const res = await createJob(token, { image_url: url });
    expect(res.status, res.text).toBe(400);
    expect(res.json).toMatchObject({ error: "IMAGE_TOO_LARGE", details: { fields: [{ field: "image_url" }] } });
    expect(res.json.message).toMatch(/1000 × 1000 pixels \(1\.0 megapixels\); background removal accepts up to 0\.5 megapixels/);
    expect(await balanceOf(token)).toBe(1000);
    expect((await ledgerOf(token)).filter((t) => t.type === "debit")).toHaveLength(0);
  });

  it("a job is named after its source: the upload's name, or the URL's last segment", async () => {
    const { token } = await testAccount({ tokens: 1000 });
    const uploaded = await createJob(token, { image_url: await upload(token, smallPng, "Beach day 2.png") });
    const linked = await createJob(token, { image_url: `${base}/small.png` });
    for (const [created, name, download] of [
      [uploaded, "Beach day 2.png", "Beach day 2-cutout.png"],
      [linked, "small.png", "small-cutout.png"],
    ] as const) {
      expect(created.status, created.text).toBe(202);
      const [row] = await (await getDb()).select().from(bgRemoveJobs).where(eq(bgRemoveJobs.id, created.json.job_id));
      expect(row?.sourceName).toBe(name);
      const { cutoutFileName } = await import("@/lib/services/bg-remove/public-job");
      expect(cutoutFileName(row!)).toBe(download);
    }
  });

  it("deletes the copy of a fetched source once the job ends", async () => {
    const { token, account } = await testAccount({ tokens: 500 });
    const created = await createJob(token, { image_url: `${base}/small.png` });
    const job = await pollJob(token, created.json.job_id);
    expect(job.status).toBe("completed");
    expect(await storage().get(sourceCopyKey(account.id, job.job_id))).toBeNull();
  }, 120_000);

  it("the failure handler is idempotent: a second run refunds nothing more", async () => {
    const { token, job, created } = await expectFailedAndRefunded(`${base}/missing.png`, /404/);
    const db = await getDb();
    const [row] = await db.select().from(bgRemoveJobs).where(eq(bgRemoveJobs.id, job.job_id));
    const again = await failBgRemoveJob(db, { jobId: job.job_id, accountId: row!.accountId, message: "a second message" });
    expect(again).toEqual({ found: true, refunded: false });
    expect((await ledgerOf(token)).filter((t) => t.type === "refund")).toHaveLength(1);
    expect(await balanceOf(token)).toBe(500);
    const [after] = await db.select().from(bgRemoveJobs).where(eq(bgRemoveJobs.id, created.json.job_id));
    expect(after!.errorMessage).toBe(job.error_message); // the first message stays
  });
});
