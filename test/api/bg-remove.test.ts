import { afterAll, beforeAll, describe, expect, it } from "vitest";
import sharp from "sharp";
import { eq } from "drizzle-orm";
import { getDb } from "@/lib/foundation/db/client";
import { bgRemoveJobs, jobRuns } from "@/lib/foundation/db/schema";
import { call, testAccount } from "../http";
import * as bgRemove from "@/app/v1/services/bg-remove/route";
import {
  balanceOf,
  createJob,
  fixture,
  getJob,
  ledgerOf,
  meanAlpha,
  meanChannels,
  outputPng,
  pollJob,
  startTestRunner,
  stopAll,
  upload,
} from "../jobs/bg-remove-harness";

// Background removal end to end: real routes, the embedded runner on this
// file's database (PGlite, or PostgreSQL with DATABASE_URL), the real model.

beforeAll(async () => {
  await startTestRunner();
});
afterAll(stopAll);

const CREATE_FIELDS = ["created_at", "job_id", "output_url", "provider", "status", "tokens_deducted", "wallet_transaction_id"];

describe("POST /v1/services/bg-remove then GET until completed", () => {
  it("cuts out the astronaut: 202 with the contract's fields, 150 debited, a transparent PNG at full size", async () => {
    const { token } = await testAccount({ tokens: 1000 });
    const imageUrl = await upload(token, fixture("astronaut.png"), "astronaut.png");
    const res = await createJob(token, { image_url: imageUrl });
    expect(res.status).toBe(202);
    expect(Object.keys(res.json).sort()).toEqual(CREATE_FIELDS);
    expect(res.json).toMatchObject({
      job_id: expect.stringMatching(/^job_/),
      status: "processing",
      output_url: null,
      tokens_deducted: 150,
      wallet_transaction_id: expect.stringMatching(/^wtx_/),
      provider: "isnet-onnx",
    });
    expect(new Date(res.json.created_at).toISOString()).toBe(res.json.created_at);
    expect(await balanceOf(token)).toBe(850);
    const [debit] = await ledgerOf(token);
    expect(debit).toMatchObject({ id: res.json.wallet_transaction_id, type: "debit", amount: -150, operation: "bg_remove", reference: res.json.job_id });

    const job = await pollJob(token, res.json.job_id);
    expect(job).toMatchObject({
      job_id: res.json.job_id,
      status: "completed",
      subject_type: "auto",
      edge_softness: 3,
      high_detail_mode: false,
      output_background: "transparent",
      tokens_deducted: 150,
      wallet_transaction_id: res.json.wallet_transaction_id,
      provider: "isnet-onnx",
      created_at: res.json.created_at,
      error_message: null,
    });
    expect(new Date(job.completed_at).getTime()).toBeGreaterThanOrEqual(new Date(job.created_at).getTime());
    // The engine's own doubt: a portrait, so the person rule ran and counted her; every region is inside the frame.
    expect(job.quality).toMatchObject({ people_kept: 1, needs_review: job.quality.doubtful_regions.length > 0 });
    for (const r of job.quality.doubtful_regions) {
      expect(r.left + r.width).toBeLessThanOrEqual(512);
      expect(r.top + r.height).toBeLessThanOrEqual(512);
      expect(r.area).toBeGreaterThan(0);
    }
    // A signed URL of ours, valid 24 hours.
    const url = new URL(job.output_url);
    expect(url.pathname).toMatch(/^\/files\/bg-remove\//);
    const expires = Number(url.searchParams.get("expires")) * 1000 - Date.now();
    expect(expires).toBeGreaterThan(23.9 * 3600_000);
    expect(expires).toBeLessThanOrEqual(24 * 3600_000);

    const png = await outputPng(job.output_url);
    expect(png.contentType).toBe("image/png");
    expect(png.meta).toMatchObject({ format: "png", width: 512, height: 512, channels: 4, hasAlpha: true });
    // Regions well inside what a person would call background or subject (20+ px from any edge):
    // the grey wall between her head and the shuttle model, the flag's top corner; her face and suit.
    expect(meanAlpha(png, { x: 320, y: 60, w: 50, h: 70 })).toBeLessThan(15);
    expect(meanAlpha(png, { x: 10, y: 10, w: 60, h: 60 })).toBeLessThan(15);
    expect(meanAlpha(png, { x: 190, y: 90, w: 60, h: 50 })).toBeGreaterThan(240);
    expect(meanAlpha(png, { x: 80, y: 300, w: 120, h: 120 })).toBeGreaterThan(240);

    // The balance stays debited; no refund for a completed job.
    expect(await balanceOf(token)).toBe(850);
    expect((await ledgerOf(token)).filter((t) => t.type === "refund")).toHaveLength(0);
  }, 180_000);

  it("cuts out the coffee cup on the table, and white mode returns an opaque PNG on white", async () => {
    const { token } = await testAccount({ tokens: 1000 });
    const imageUrl = await upload(token, fixture("coffee.png"), "coffee.png");
    const transparent = await createJob(token, { image_url: imageUrl, subject_type: "product", edge_softness: 0 });
    const white = await createJob(token, { image_url: imageUrl, subject_type: "product", output_background: "white", high_detail_mode: true });
    expect([transparent.status, white.status]).toEqual([202, 202]);

    const t = await pollJob(token, transparent.json.job_id);
    expect(t).toMatchObject({ status: "completed", subject_type: "product", edge_softness: 0, output_background: "transparent" });
    // A product: the person rule never ran (no count), and the cup's matte is sure of itself.
    expect(t.quality).toEqual({ people_kept: null, doubtful_regions: [], needs_review: false });
    const cut = await outputPng(t.output_url);
    expect(cut.meta).toMatchObject({ width: 600, height: 400, hasAlpha: true });
    // Table top corners and bottom-right corner are background; the crema and the saucer's rim are subject.
    expect(meanAlpha(cut, { x: 10, y: 10, w: 60, h: 50 })).toBeLessThan(15);
    expect(meanAlpha(cut, { x: 500, y: 10, w: 90, h: 50 })).toBeLessThan(15);
    expect(meanAlpha(cut, { x: 520, y: 340, w: 70, h: 50 })).toBeLessThan(15);
    expect(meanAlpha(cut, { x: 240, y: 110, w: 100, h: 60 })).toBeGreaterThan(240);
    expect(meanAlpha(cut, { x: 120, y: 250, w: 80, h: 50 })).toBeGreaterThan(240);
    // edge_softness 0 is a hard cut: no partial alpha at all.
    let partial = 0;
    for (let i = 3; i < cut.data.length; i += 4) if (cut.data[i]! > 0 && cut.data[i]! < 255) partial++;
    expect(partial).toBe(0);

    const w = await pollJob(token, white.json.job_id);
    expect(w).toMatchObject({ status: "completed", output_background: "white", high_detail_mode: true });
    const opaque = await outputPng(w.output_url);
    expect(opaque.meta).toMatchObject({ format: "png", width: 600, height: 400, hasAlpha: false, channels: 3 });
    // The background became white: the table's top-left corner is now (near) 255 on all channels.
    for (const mean of meanChannels(opaque, { x: 10, y: 10, w: 60, h: 50 })) expect(mean).toBeGreaterThan(245);
    // ... while the crema keeps its colour.
    const [r, g, b] = meanChannels(opaque, { x: 240, y: 110, w: 100, h: 60 });
    expect(r! - b!).toBeGreaterThan(60);
    expect(g).toBeLessThan(200);
    expect(await balanceOf(token)).toBe(700);
  }, 180_000);
});

describe("validation and refusals at request time (nothing charged)", () => {
  it.each([
    [{}, "image_url"],
    [{ image_url: "not a url" }, "image_url"],
    [{ image_url: "https://example.com/a.png", edge_softness: 11 }, "edge_softness"],
    [{ image_url: "https://example.com/a.png", edge_softness: -1 }, "edge_softness"],
    [{ image_url: "https://example.com/a.png", edge_softness: 2.5 }, "edge_softness"],
    [{ image_url: "https://example.com/a.png", edge_softness: "3" }, "edge_softness"],
    [{ image_url: "https://example.com/a.png", subject_type: "cat" }, "subject_type"],
    [{ image_url: "https://example.com/a.png", high_detail_mode: "yes" }, "high_detail_mode"],
    [{ image_url: "https://example.com/a.png", output_background: "black" }, "output_background"],
    [{ image_url: "https://example.com/a.png", edgeSoftness: 3 }, "edgeSoftness"],
  ])("%j -> 400 naming %s", async (body, field) => {
    const { token } = await testAccount({ tokens: 1000 });
    const res = await createJob(token, body);
    expect(res.status).toBe(400);
    expect(res.json.error).toBe("VALIDATION_ERROR");
    expect(res.json.details.fields.map((f: { field: string }) => f.field)).toContain(field);
    expect(await balanceOf(token)).toBe(1000);
  });

  it.each(["http://127.0.0.1/x.png", "http://169.254.169.254/latest/meta-data/", "http://10.1.2.3/a.jpg", "http://[::1]/a.png", "ftp://example.com/a.png", "file:///etc/passwd"])(
    "refuses %s with 400 URL_NOT_ALLOWED and charges nothing",
    async (url) => {
      const { token, account } = await testAccount({ tokens: 1000 });
      const res = await createJob(token, { image_url: url });
      expect(res.status).toBe(400);
      expect(res.json.error).toMatch(/URL_NOT_ALLOWED|VALIDATION_ERROR/);
      expect(JSON.stringify(res.json.details)).toContain("image_url");
      expect(await balanceOf(token)).toBe(1000);
      const db = await getDb();
      expect(await db.select().from(bgRemoveJobs).where(eq(bgRemoveJobs.accountId, account.id))).toHaveLength(0);
    },
  );

  it("answers 402 with the contract's wallet body when the balance is short, and writes nothing", async () => {
    const { token, account } = await testAccount({ tokens: 149 });
    const res = await createJob(token, { image_url: await upload(token, fixture("coffee.png")) });
    expect(res.status).toBe(402);
    expect(res.json).toMatchObject({ error: "INSUFFICIENT_TOKENS", balance: 149, shortfall: 1, top_up_url: expect.any(String) });
    const db = await getDb();
    expect(await db.select().from(bgRemoveJobs).where(eq(bgRemoveJobs.accountId, account.id))).toHaveLength(0);
    expect(await balanceOf(token)).toBe(149);
  });

  it("needs credentials, and has no other methods than the list and create", async () => {
    expect((await createJob(undefined as unknown as string, { image_url: "https://example.com/a.png" })).status).toBe(401);
    const res = await call(bgRemove, "PUT", "/v1/services/bg-remove", { token: (await testAccount()).token, body: {} });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, POST");
  });
});

describe("GET /v1/services/bg-remove/{jobId}", () => {
  it("is 404 for another account's job and for unknown ids", async () => {
    const owner = await testAccount({ tokens: 1000 });
    const other = await testAccount({ tokens: 1000 });
    const created = await createJob(owner.token, { image_url: await upload(owner.token, await sharp(fixture("coffee.png")).resize(120).png().toBuffer()) });
    expect(created.status).toBe(202);
    const theirs = await getJob(other.token, created.json.job_id);
    expect(theirs.status).toBe(404);
    expect(theirs.json.error).toBe("NOT_FOUND");
    expect((await getJob(owner.token, "job_doesnotexist")).status).toBe(404);
    expect((await getJob(owner.token, created.json.job_id)).status).toBe(200);
    await pollJob(owner.token, created.json.job_id, 120_000); // let it end before the runner stops
  }, 180_000);
});

describe("concurrent acceptance", () => {
  it("20 jobs at once against a balance for 10: 10 accepted, 10 x 402, balance and ledger consistent", async () => {
    const { token, account } = await testAccount({ tokens: 1500 });
    // A small image keeps the 10 model runs short.
    const small = await sharp(fixture("coffee.png")).resize(160).png().toBuffer();
    const imageUrl = await upload(token, small, "small.png");
    const results = await Promise.all(Array.from({ length: 20 }, () => createJob(token, { image_url: imageUrl })));
    const accepted = results.filter((r) => r.status === 202);
    const refused = results.filter((r) => r.status === 402);
    expect(accepted).toHaveLength(10);
    expect(refused).toHaveLength(10);
    for (const r of refused) expect(r.json).toMatchObject({ error: "INSUFFICIENT_TOKENS", shortfall: expect.any(Number) });
    expect(await balanceOf(token)).toBe(0);

    const db = await getDb();
    const rows = await db.select().from(bgRemoveJobs).where(eq(bgRemoveJobs.accountId, account.id));
    expect(rows).toHaveLength(10);
    const ids = new Set(accepted.map((r) => r.json.job_id));
    const runs = await db.select().from(jobRuns);
    expect(runs.filter((r) => ids.has((r.eventData as { jobId: string }).jobId))).toHaveLength(10);

    // Polled one after another, once a second, to stay under the 120 requests a minute limit.
    const finished = [];
    for (const r of accepted) finished.push(await pollJob(token, r.json.job_id, 300_000, 1_000));
    expect(finished.every((j) => j.status === "completed")).toBe(true);
    const ledger = await ledgerOf(token);
    const debits = ledger.filter((t) => t.type === "debit");
    expect(debits).toHaveLength(10);
    expect(new Set(debits.map((d) => d.reference))).toEqual(ids);
    expect(ledger.reduce((sum, t) => sum + t.amount, 0)).toBe(await balanceOf(token));
  }, 400_000);
});
