import { afterAll, beforeAll, describe, expect, it } from "vitest";
import sharp from "sharp";
import { and, eq } from "drizzle-orm";
import * as endpointsRoute from "@/app/v1/webhook-endpoints/route";
import * as uploadsRoute from "@/app/v1/uploads/route";
import * as bgRemoveRoute from "@/app/v1/services/bg-remove/route";
import * as bgRemoveJobRoute from "@/app/v1/services/bg-remove/[jobId]/route";
import { resetConfig } from "@/lib/foundation/config";
import { getDb } from "@/lib/foundation/db/client";
import { jobRuns, webhookDeliveries } from "@/lib/foundation/db/schema";
import { completeBgRemoveJob, failBgRemoveJob } from "@/lib/services/bg-remove/finish-job";
import { call, testAccount } from "../http";

// The services' own finish and fail code emits the events (no runner runs in
// this file, so deliveries stay queued and their payloads are read from the
// database): each payload's `data` is what the resource's GET answers.
process.env.FETCH_ALLOW_HOSTS = "127.0.0.1";
resetConfig();

let png: Buffer;
beforeAll(async () => {
  png = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#4a7" } }).png().toBuffer();
});
afterAll(() => {
  delete process.env.FETCH_ALLOW_HOSTS;
  resetConfig();
});

async function setUp(events: string[]) {
  const { token, account } = await testAccount({ tokens: 500 });
  const ep = await call(endpointsRoute, "POST", "/v1/webhook-endpoints", { token, body: { url: "http://127.0.0.1:9/hook", events } });
  expect(ep.status).toBe(201);
  const form = new FormData();
  form.append("file", new File([new Uint8Array(png)], "p.png", { type: "image/png" }));
  const upload = await call(uploadsRoute, "POST", "/v1/uploads", { token, rawBody: form });
  const job = await call(bgRemoveRoute, "POST", "/v1/services/bg-remove", { token, body: { image_url: upload.json.url } });
  expect(job.status).toBe(202);
  return { token, accountId: account.id, endpointId: ep.json.id as string, jobId: job.json.job_id as string };
}

/** A resource without its signed URLs, which carry their expiry and so differ per call. */
const unsigned = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([k]) => !k.endsWith("_url")));

async function payloads(endpointId: string) {
  const db = await getDb();
  const rows = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId));
  return new Map(rows.map((r) => [r.eventType, r]));
}

describe("events emitted by the services", () => {
  it("a failed background removal sends bg_removal.failed (the GET's object) and refund.created, each with its delivery job", async () => {
    const { token, accountId, endpointId, jobId } = await setUp(["bg_removal.failed", "bg_removal.completed", "refund.created"]);
    const db = await getDb();
    await failBgRemoveJob(db, { jobId, accountId, message: "The source could not be read." });
    await failBgRemoveJob(db, { jobId, accountId, message: "again" }); // idempotent: no second event
    const got = await payloads(endpointId);
    expect([...got.keys()].sort()).toEqual(["bg_removal.failed", "refund.created"]);
    const viaGet = await call(bgRemoveJobRoute, "GET", `/v1/services/bg-remove/${jobId}`, { token, params: { jobId } });
    // Signed URLs carry their expiry (made per call, a second apart at times): the rest is identical.
    const failed = got.get("bg_removal.failed")!.payload as { type: string; data: Record<string, unknown> };
    expect(failed.type).toBe("bg_removal.failed");
    expect(Object.keys(failed.data).sort()).toEqual(Object.keys(viaGet.json).sort());
    expect(unsigned(failed.data)).toEqual(unsigned(viaGet.json as Record<string, unknown>));
    expect(got.get("refund.created")!.payload.data).toMatchObject({ type: "refund" });
    for (const d of got.values()) {
      const runs = await db
        .select()
        .from(jobRuns)
        .where(and(eq(jobRuns.functionId, "webhook-delivery"), eq(jobRuns.eventId, `${d.id}-1`)));
      expect(runs).toHaveLength(1);
    }
  });

  it("a completed background removal sends bg_removal.completed once; an account without endpoints gets nothing", async () => {
    const { token, endpointId, jobId } = await setUp(["bg_removal.completed"]);
    const db = await getDb();
    expect(await completeBgRemoveJob(db, jobId, { key: "k/out.png", width: 64, height: 48, provider: "test" })).toBe(true);
    expect(await completeBgRemoveJob(db, jobId, { key: "k/out.png", width: 64, height: 48, provider: "test" })).toBe(false);
    const got = await payloads(endpointId);
    expect([...got.keys()]).toEqual(["bg_removal.completed"]);
    const viaGet = await call(bgRemoveJobRoute, "GET", `/v1/services/bg-remove/${jobId}`, { token, params: { jobId } });
    const data = got.get("bg_removal.completed")!.payload.data as Record<string, unknown>;
    expect(Object.keys(data).sort()).toEqual(Object.keys(viaGet.json).sort());
    expect(unsigned(data)).toEqual(unsigned(viaGet.json as Record<string, unknown>));
    expect(data.status).toBe("completed");

    const other = await testAccount({ tokens: 500 });
    const before = (await db.select().from(webhookDeliveries)).length;
    const form = new FormData();
    form.append("file", new File([new Uint8Array(png)], "p.png", { type: "image/png" }));
    const upload = await call(uploadsRoute, "POST", "/v1/uploads", { token: other.token, rawBody: form });
    const job = await call(bgRemoveRoute, "POST", "/v1/services/bg-remove", { token: other.token, body: { image_url: upload.json.url } });
    await failBgRemoveJob(db, { jobId: job.json.job_id, accountId: other.account.id, message: "x" });
    expect((await db.select().from(webhookDeliveries)).length).toBe(before);
  });
});
