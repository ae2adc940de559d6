import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { Webhook, WebhookVerificationError } from "standardwebhooks";
import { eq, sql } from "drizzle-orm";
import * as endpointsRoute from "@/app/v1/webhook-endpoints/route";
import * as endpointRoute from "@/app/v1/webhook-endpoints/[id]/route";
import * as rotateRoute from "@/app/v1/webhook-endpoints/[id]/rotate-secret/route";
import * as testRoute from "@/app/v1/webhook-endpoints/[id]/test/route";
import * as deliveriesRoute from "@/app/v1/webhook-endpoints/[id]/deliveries/route";
import * as redeliverRoute from "@/app/v1/webhook-endpoints/[id]/deliveries/[deliveryId]/redeliver/route";
import * as walletRoute from "@/app/v1/wallet/route";
import * as transactionsRoute from "@/app/v1/wallet/transactions/route";
import { resetConfig } from "@/lib/foundation/config";
import { getDb } from "@/lib/foundation/db/client";
import { webhookAttempts, webhookDeliveries } from "@/lib/foundation/db/schema";
import { startJobRunner, stopJobRunner } from "@/lib/domain/jobs/runner/runner-instance";
import { debitTokens } from "@/lib/domain/wallet/debit-tokens";
import { refundDebit } from "@/lib/domain/wallet/refund-debit";
import { emitWebhookEvent } from "@/lib/domain/webhooks/emit";
import { pruneWebhookDeliveries } from "@/lib/domain/webhooks/retention";
import { call, testAccount } from "../http";

// Webhooks end to end: a real local HTTP receiver verifies every request with
// the `standardwebhooks` library (what a receiver would use), the embedded runner
// delivers, and the retry schedule is shortened to fractions of a second.
// 127.0.0.1 is reachable only because FETCH_ALLOW_HOSTS (the safe fetcher's
// existing test-only escape hatch) names it; one test removes it and the
// delivery to the same endpoint is refused.
process.env.FETCH_ALLOW_HOSTS = "127.0.0.1";
process.env.WEBHOOK_RETRY_SCHEDULE = "0.1,0.1,0.1";
process.env.WEBHOOK_TIMEOUT_MS = "400";
process.env.WEBHOOK_DISABLE_AFTER = "2";
process.env.WEBHOOK_WALLET_LOW_TOKENS = "50";
process.env.JOB_WARM_UP = "off";
resetConfig();

type Received = { path: string; headers: Record<string, string>; body: string; verified: boolean; error?: string };
const received: Received[] = [];
const secrets = new Map<string, string>();
/** Per path: answers to give in order (the last repeats). "hang" never answers in time. */
const scripts = new Map<string, (number | "hang")[]>();
let base = "";

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const path = req.url ?? "/";
    const body = Buffer.concat(chunks).toString("utf8");
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
    let verified = false;
    let error: string | undefined;
    try {
      new Webhook(secrets.get(path) ?? "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw").verify(body, headers);
      verified = true;
    } catch (err) {
      error = (err as Error).message;
    }
    received.push({ path, headers, body, verified, error });
    const script = scripts.get(path) ?? [200];
    const answer = script.length > 1 ? script.shift()! : script[0]!;
    if (answer === "hang") return void setTimeout(() => res.writeHead(200).end("late"), 1_500);
    res.writeHead(answer, { "content-type": "text/plain" }).end(answer === 200 ? "thanks" : `error ${answer}`);
  });
});

beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await startJobRunner({ pollMs: 25, retryBaseMs: 50, retryMaxMs: 200, leaseMs: 5_000 });
});

afterAll(async () => {
  await stopJobRunner({ drainMs: 0 });
  await new Promise<void>((r) => server.close(() => r()));
  server.closeAllConnections();
});

afterEach(() => {
  vi.useRealTimers();
  process.env.FETCH_ALLOW_HOSTS = "127.0.0.1";
  resetConfig();
});

async function endpoint(token: string, path: string, events: string[] = ["wallet.low", "refund.created"]) {
  const res = await call(endpointsRoute, "POST", "/v1/webhook-endpoints", { token, body: { url: `${base}${path}`, events } });
  expect(res.status).toBe(201);
  secrets.set(path, res.json.secret);
  return res.json as { id: string; secret: string; url: string };
}

async function until<T>(check: () => Promise<T | undefined | false> | T | undefined | false, what: string, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function deliveries(token: string, id: string) {
  const res = await call(deliveriesRoute, "GET", `/v1/webhook-endpoints/${id}/deliveries`, { token, params: { id } });
  expect(res.status).toBe(200);
  return res.json.data as { id: string; status: string; event_type: string; attempts: { attempt: number; status_code: number | null; error: string | null; response_snippet: string | null; duration_ms: number }[]; payload: { type: string; data: unknown } }[];
}

const finished = (token: string, id: string, n = 1) =>
  until(async () => {
    const list = await deliveries(token, id);
    return list.length >= n && list.every((d) => d.status !== "pending") && list;
  }, "deliveries to finish");

describe("webhook endpoints", () => {
  it("creates an endpoint with a whsec_ secret shown once, lists it without the secret", async () => {
    const { token } = await testAccount();
    const created = await endpoint(token, "/create");
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{32}$/);
    const list = await call(endpointsRoute, "GET", "/v1/webhook-endpoints", { token });
    expect(list.json.data).toHaveLength(1);
    expect(list.json.data[0].secret).toBeUndefined();
    expect(list.json.meta.total).toBe(1);
    const one = await call(endpointRoute, "GET", `/v1/webhook-endpoints/${created.id}`, { token, params: { id: created.id } });
    expect(one.json).toMatchObject({ id: created.id, enabled: true, events: ["wallet.low", "refund.created"] });
    expect(one.json.secret).toBeUndefined();
  });

  it("refuses private addresses, bad schemes and unknown events, naming the field", async () => {
    const { token } = await testAccount();
    for (const url of ["http://192.168.1.10/hook", "http://localhost/hook", "http://169.254.169.254/latest", "ftp://example.com/x", "not a url"]) {
      const res = await call(endpointsRoute, "POST", "/v1/webhook-endpoints", { token, body: { url, events: ["wallet.low"] } });
      expect(res.status, url).toBe(400);
      expect(res.json.error).toBe("URL_NOT_ALLOWED");
      expect(res.json.details.field).toBe("url");
    }
    const bad = await call(endpointsRoute, "POST", "/v1/webhook-endpoints", { token, body: { url: `${base}/x`, events: ["nope.happened"] } });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.json)).toContain("events");
  });

  it("another account's endpoint and deliveries are 404 on every route", async () => {
    const a = await testAccount();
    const b = await testAccount();
    const ep = await endpoint(a.token, "/private");
    const sent = await call(testRoute, "POST", `/v1/webhook-endpoints/${ep.id}/test`, { token: a.token, params: { id: ep.id } });
    expect(sent.status).toBe(202);
    await finished(a.token, ep.id);
    const p = { id: ep.id };
    const d = { id: ep.id, deliveryId: sent.json.id };
    const answers = [
      await call(endpointRoute, "GET", `/v1/webhook-endpoints/${ep.id}`, { token: b.token, params: p }),
      await call(endpointRoute, "PATCH", `/v1/webhook-endpoints/${ep.id}`, { token: b.token, params: p, body: { enabled: false } }),
      await call(endpointRoute, "DELETE", `/v1/webhook-endpoints/${ep.id}`, { token: b.token, params: p }),
      await call(rotateRoute, "POST", `/v1/webhook-endpoints/${ep.id}/rotate-secret`, { token: b.token, params: p }),
      await call(testRoute, "POST", `/v1/webhook-endpoints/${ep.id}/test`, { token: b.token, params: p }),
      await call(deliveriesRoute, "GET", `/v1/webhook-endpoints/${ep.id}/deliveries`, { token: b.token, params: p }),
      await call(redeliverRoute, "POST", `/v1/webhook-endpoints/${ep.id}/deliveries/${sent.json.id}/redeliver`, { token: b.token, params: d }),
    ];
    for (const res of answers) expect(res.status).toBe(404);
    expect((await call(endpointsRoute, "GET", "/v1/webhook-endpoints", { token: b.token })).json.data).toHaveLength(0);
    // A's endpoint is untouched.
    expect((await call(endpointRoute, "GET", `/v1/webhook-endpoints/${ep.id}`, { token: a.token, params: p })).json.enabled).toBe(true);
  });
});

describe("deliveries", () => {
  it("wallet.low and refund.created arrive signed, verified by the standardwebhooks library, with the GET's object as data", async () => {
    const { token, account } = await testAccount({ tokens: 100 });
    const ep = await endpoint(token, "/wallet");
    const db = await getDb();
    const debit = await debitTokens(db, { accountId: account.id, amount: 60, operation: "test", reference: "webhook-test" });
    await debitTokens(db, { accountId: account.id, amount: 5, operation: "test", reference: "webhook-test-2" }); // already low: no second event
    await refundDebit(db, { accountId: account.id, debitId: debit.id, reason: "test refund" });
    const done = await finished(token, ep.id, 2);
    expect(done.map((d) => d.event_type).sort()).toEqual(["refund.created", "wallet.low"]);
    // At least once, as Standard Webhooks promise: a run whose lease lapsed on a loaded machine may send a
    // message again, with the same webhook-id, which receivers deduplicate on. Two messages, each recorded once.
    const got = [...new Map(received.filter((r) => r.path === "/wallet").map((r) => [r.headers["webhook-id"], r])).values()];
    expect(got).toHaveLength(2);
    for (const r of got) {
      expect(r.verified, r.error).toBe(true);
      expect(r.headers["webhook-id"]).toMatch(/^msg_/);
      expect(r.headers["webhook-signature"]).toMatch(/^v1,/);
    }
    const low = JSON.parse(got.find((r) => r.body.includes("wallet.low"))!.body);
    expect(low.data).toEqual({ balance: 40 });
    const refund = JSON.parse(got.find((r) => r.body.includes("refund.created"))!.body);
    const ledger = await call(transactionsRoute, "GET", "/v1/wallet/transactions", { token });
    const entry = ledger.json.data.find((t: { type: string }) => t.type === "refund");
    expect(refund.data).toEqual(entry);
    expect((await call(walletRoute, "GET", "/v1/wallet", { token })).json.balance).toBe(95);
    expect(done.every((d) => d.attempts.length === 1 && d.attempts[0]!.status_code === 200 && d.attempts[0]!.response_snippet === "thanks")).toBe(true);
  });

  it("an event no endpoint wants is not delivered; emitting inside a transaction that rolls back delivers nothing", async () => {
    const { token, account } = await testAccount();
    const ep = await endpoint(token, "/picky", ["bg_removal.completed"]);
    const db = await getDb();
    expect(await emitWebhookEvent(db, { accountId: account.id, type: "wallet.low", data: { balance: 1 } })).toBe(0);
    await db
      .transaction(async (tx) => {
        expect(await emitWebhookEvent(tx, { accountId: account.id, type: "bg_removal.completed", data: { id: "job_x" } })).toBe(1);
        throw new Error("rollback");
      })
      .catch(() => {});
    await new Promise((r) => setTimeout(r, 300));
    expect(await deliveries(token, ep.id)).toHaveLength(0);
    expect(received.filter((r) => r.path === "/picky")).toHaveLength(0);
  });

  it("retries after 500s with the same message id, logging every attempt", async () => {
    const { token } = await testAccount();
    const ep = await endpoint(token, "/flaky");
    scripts.set("/flaky", [500, 503, 200]);
    await call(testRoute, "POST", `/v1/webhook-endpoints/${ep.id}/test`, { token, params: { id: ep.id } });
    const [d] = await finished(token, ep.id);
    expect(d!.status).toBe("succeeded");
    expect(d!.attempts.map((a) => a.status_code)).toEqual([500, 503, 200]);
    expect(d!.attempts[0]!.response_snippet).toBe("error 500");
    expect(d!.attempts[0]!.error).toMatch(/500/);
    const got = received.filter((r) => r.path === "/flaky");
    expect(new Set(got.map((r) => r.headers["webhook-id"])).size).toBe(1);
    expect(got.every((r) => r.verified)).toBe(true);
  });

  it("a receiver that does not answer in time is a failed attempt, retried", async () => {
    const { token } = await testAccount();
    const ep = await endpoint(token, "/slow");
    scripts.set("/slow", ["hang", 200]);
    await call(testRoute, "POST", `/v1/webhook-endpoints/${ep.id}/test`, { token, params: { id: ep.id } });
    const [d] = await finished(token, ep.id);
    expect(d!.status).toBe("succeeded");
    expect(d!.attempts[0]).toMatchObject({ status_code: null, error: "No answer within the time limit." });
    expect(d!.attempts[0]!.duration_ms).toBeGreaterThanOrEqual(350);
    expect(d!.attempts[1]!.status_code).toBe(200);
  });

  it("never delivers to a private address: the same endpoint is refused at delivery once the test allowance is gone", async () => {
    const { token } = await testAccount();
    const ep = await endpoint(token, "/private-now");
    delete process.env.FETCH_ALLOW_HOSTS;
    resetConfig();
    await call(testRoute, "POST", `/v1/webhook-endpoints/${ep.id}/test`, { token, params: { id: ep.id } });
    const [d] = await finished(token, ep.id);
    expect(d!.status).toBe("failed");
    expect(d!.attempts).toHaveLength(4);
    for (const a of d!.attempts) {
      expect(a.status_code).toBeNull();
      expect(a.error).toMatch(/^Refused: /);
    }
    expect(received.filter((r) => r.path === "/private-now")).toHaveLength(0);
  });

  it("disables an endpoint after repeated failed deliveries, says why, and can be enabled again", async () => {
    const { token } = await testAccount();
    const ep = await endpoint(token, "/down");
    scripts.set("/down", [500]);
    for (let i = 0; i < 2; i++) {
      await call(testRoute, "POST", `/v1/webhook-endpoints/${ep.id}/test`, { token, params: { id: ep.id } });
      await finished(token, ep.id, i + 1);
    }
    const got = await call(endpointRoute, "GET", `/v1/webhook-endpoints/${ep.id}`, { token, params: { id: ep.id } });
    expect(got.json.enabled).toBe(false);
    expect(got.json.disabled_reason).toMatch(/2 deliveries in a row/);
    const refused = await call(testRoute, "POST", `/v1/webhook-endpoints/${ep.id}/test`, { token, params: { id: ep.id } });
    expect(refused.status).toBe(409);
    const enabled = await call(endpointRoute, "PATCH", `/v1/webhook-endpoints/${ep.id}`, { token, params: { id: ep.id }, body: { enabled: true } });
    expect(enabled.json).toMatchObject({ enabled: true, disabled_reason: null, failed_deliveries_in_a_row: 0 });
  });

  it("redelivers a finished delivery by hand, as a further attempt of the same message", async () => {
    const { token } = await testAccount();
    const ep = await endpoint(token, "/again");
    const sent = await call(testRoute, "POST", `/v1/webhook-endpoints/${ep.id}/test`, { token, params: { id: ep.id } });
    await finished(token, ep.id);
    const again = await call(redeliverRoute, "POST", `/v1/webhook-endpoints/${ep.id}/deliveries/${sent.json.id}/redeliver`, { token, params: { id: ep.id, deliveryId: sent.json.id } });
    expect(again.status).toBe(202);
    const [d] = await until(async () => {
      const list = await deliveries(token, ep.id);
      return list[0]!.attempts.length === 2 && list[0]!.status === "succeeded" && list;
    }, "the redelivery");
    expect(d!.attempts.map((a) => a.attempt)).toEqual([1, 2]);
    const got = received.filter((r) => r.path === "/again");
    expect(got.map((r) => r.headers["webhook-id"])).toEqual([sent.json.id, sent.json.id]);
  });

  it("rotating the secret signs the next delivery with the new one only", async () => {
    const { token } = await testAccount();
    const ep = await endpoint(token, "/rotated");
    const rotated = await call(rotateRoute, "POST", `/v1/webhook-endpoints/${ep.id}/rotate-secret`, { token, params: { id: ep.id } });
    expect(rotated.status).toBe(200);
    expect(rotated.json.secret).not.toBe(ep.secret);
    secrets.set("/rotated", rotated.json.secret);
    await call(testRoute, "POST", `/v1/webhook-endpoints/${ep.id}/test`, { token, params: { id: ep.id } });
    await finished(token, ep.id);
    const r = received.find((x) => x.path === "/rotated")!;
    expect(r.verified).toBe(true);
    expect(() => new Webhook(ep.secret).verify(r.body, r.headers)).toThrow(WebhookVerificationError);
  });

  it("a captured delivery replayed after the tolerance (5 minutes) fails verification, as does a changed body", async () => {
    const { token } = await testAccount();
    const ep = await endpoint(token, "/replay");
    await call(testRoute, "POST", `/v1/webhook-endpoints/${ep.id}/test`, { token, params: { id: ep.id } });
    await finished(token, ep.id);
    const r = received.find((x) => x.path === "/replay")!;
    const wh = new Webhook(secrets.get("/replay")!);
    expect(wh.verify(r.body, r.headers)).toMatchObject({ type: "webhook.test" });
    expect(() => wh.verify(r.body.replace("test event", "tset event"), r.headers)).toThrow(WebhookVerificationError);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 6 * 60_000);
    expect(() => wh.verify(r.body, r.headers)).toThrow(/too old/);
  });

  it("deleting an endpoint deletes its deliveries; the sweep deletes deliveries older than the retention", async () => {
    const { token } = await testAccount();
    const ep = await endpoint(token, "/gone");
    await call(testRoute, "POST", `/v1/webhook-endpoints/${ep.id}/test`, { token, params: { id: ep.id } });
    const [d] = await finished(token, ep.id);
    const db = await getDb();
    await db.update(webhookDeliveries).set({ createdAt: sql`now() - interval '31 days'` }).where(eq(webhookDeliveries.id, d!.id));
    expect(await pruneWebhookDeliveries(db, new Date(Date.now() - 30 * 86_400_000))).toBeGreaterThanOrEqual(1);
    expect(await db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, d!.id))).toHaveLength(0);
    await call(testRoute, "POST", `/v1/webhook-endpoints/${ep.id}/test`, { token, params: { id: ep.id } });
    await finished(token, ep.id);
    expect((await call(endpointRoute, "DELETE", `/v1/webhook-endpoints/${ep.id}`, { token, params: { id: ep.id } })).status).toBe(204);
    expect(await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, ep.id))).toHaveLength(0);
    expect((await call(endpointRoute, "GET", `/v1/webhook-endpoints/${ep.id}`, { token, params: { id: ep.id } })).status).toBe(404);
  });
});
