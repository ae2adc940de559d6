import fs from "node:fs";
import sharp from "sharp";
import { afterAll, describe, expect, it, vi } from "vitest";

// The structured log of a run through every way in (sign-up, token, API key,
// Basic, operator token, uploads with signed URLs, a job that fails and refunds)
// carries ids, statuses and durations, and none of the secrets or file contents.
const env = vi.hoisted(() => {
  const file = `${process.env.TMPDIR ?? "/tmp"}/print-studio-log-${process.pid}-${Date.now()}.jsonl`;
  process.env.LOG_FILE = file;
  process.env.LOG_LEVEL = "debug";
  process.env.LOG_FORMAT = "json";
  process.env.OPERATOR_TOKEN = "operator-secret-value-5f8a1c2e9b";
  return { file };
});

import * as register from "@/app/v1/auth/register/route";
import * as tokenRoute from "@/app/v1/auth/token/route";
import * as keys from "@/app/v1/api-keys/route";
import * as account from "@/app/v1/account/route";
import * as products from "@/app/v1/products/route";
import * as grants from "@/app/v1/operator/grants/route";
import * as uploads from "@/app/v1/uploads/route";
import { config } from "@/lib/foundation/config";
import { call } from "../http";
import { basicHeader } from "../api/core-fixtures";
import { createJob, pollJob, startTestRunner, stopAll } from "../jobs/bg-remove-harness";

afterAll(async () => {
  await stopAll();
  fs.rmSync(env.file, { force: true });
});

const lines = () =>
  fs
    .readFileSync(env.file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe("structured logs", () => {
  it("log every request and job attempt with ids and durations, and never a secret or a file's contents", async () => {
    const email = `logs-${Date.now()}@example.com`;
    const password = "purple-Elephant-dances-8841";
    expect((await call(register, "POST", "/v1/auth/register", { body: { email, password, name: "Log Check" } })).status).toBe(201);
    expect((await call(tokenRoute, "POST", "/v1/auth/token", { body: { email, password: "wrong-Password-0000-typo" } })).status).toBe(401);
    const issued = await call(tokenRoute, "POST", "/v1/auth/token", { body: { email, password } });
    const accessToken = issued.json.access_token as string;
    const key = await call(keys, "POST", "/v1/api-keys", { token: accessToken, body: { name: "Log key" } });
    const apiKey = key.json.key as string;
    const meRes = await call(account, "GET", "/v1/account", { token: apiKey });
    expect(meRes.status).toBe(200);
    const accountId = (meRes.json.id ?? meRes.json.account?.id) as string;
    expect(accountId).toEqual(expect.any(String));
    expect((await call(products, "GET", "/v1/products", { headers: { authorization: basicHeader(email, password) } })).status).toBe(200);
    expect((await call(grants, "POST", "/v1/operator/grants", { token: config().OPERATOR_TOKEN, body: { email, tokens: 500, reason: "log test" } })).status).toBe(201);

    // A file whose bytes carry a marker, uploaded; its signed URL then starts a job that fails (not an image it can decode) and is refunded.
    const marker = "FILE-CONTENT-MARKER-7c1e";
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#808080" } }).png().toBuffer();
    const broken = Buffer.concat([png.subarray(0, 33), Buffer.from(marker.repeat(20))]); // signature + IHDR, then no image data
    const form = new FormData();
    form.append("file", new File([new Uint8Array(broken)], "broken.png", { type: "image/png" }));
    const uploaded = await call(uploads, "POST", "/v1/uploads", { token: accessToken, rawBody: form });
    expect(uploaded.status).toBe(201);
    const signature = new URL(uploaded.json.url as string).searchParams.get("sig") ?? new URL(uploaded.json.url as string).search;
    await startTestRunner();
    const job = await createJob(accessToken, { image_url: uploaded.json.url });
    expect(job.status).toBe(202);
    expect((await pollJob(accessToken, job.json.job_id, 120_000)).status).toBe("failed");

    const all = lines();
    const requests = all.filter((l) => l.msg === "request");
    expect(requests.length).toBeGreaterThanOrEqual(9);
    for (const r of requests) {
      expect(r).toMatchObject({ request_id: expect.stringMatching(/^req_/), method: expect.any(String), path: expect.stringMatching(/^\/v1\//), status: expect.any(Number), duration_ms: expect.any(Number) });
    }
    expect(requests.find((r) => r.path === "/v1/account")?.account_id).toBe(accountId);
    const attempts = all.filter((l) => l.msg === "job attempt");
    expect(attempts.length).toBeGreaterThanOrEqual(1);
    expect(attempts[0]).toMatchObject({ function: "bg-remove", job_id: job.json.job_id, account_id: accountId, attempt: 1, duration_ms: expect.any(Number) });

    const text = fs.readFileSync(env.file, "utf8");
    const secrets = {
      password,
      "wrong password": "wrong-Password-0000-typo",
      "access token": accessToken,
      "API key": apiKey,
      "Basic credentials": basicHeader(email, password).replace(/^Basic /, ""),
      "operator token": config().OPERATOR_TOKEN!,
      "AUTH_SECRET": process.env.AUTH_SECRET!,
      "signed URL signature": signature,
      "file contents": marker,
    };
    for (const [what, value] of Object.entries(secrets)) {
      expect(value.length, what).toBeGreaterThan(8);
      expect(text.includes(value), `the log contains the ${what}`).toBe(false);
    }
  }, 180_000);
});
