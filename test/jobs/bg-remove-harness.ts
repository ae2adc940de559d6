// Shared steps of the background removal tests: real routes, real storage,
// the real engine, the embedded runner on the test's own database.
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import * as bgRemove from "@/app/v1/services/bg-remove/route";
import * as bgRemoveJob from "@/app/v1/services/bg-remove/[jobId]/route";
import * as uploads from "@/app/v1/uploads/route";
import * as wallet from "@/app/v1/wallet/route";
import * as transactions from "@/app/v1/wallet/transactions/route";
import { storage } from "@/lib/domain/storage";
import { startJobRunner, stopJobRunner } from "@/lib/domain/jobs/runner/runner-instance";
import type { RunnerOptions } from "@/lib/domain/jobs/runner/runner-options";
import { call } from "../http";

export const FIXTURES = path.resolve(process.cwd(), "lib/engines/ml/background-removal/fixtures");
export const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name));

/** Uploads bytes through POST /v1/uploads; returns the signed URL jobs accept as image_url. */
export async function upload(token: string, bytes: Buffer, name = "photo.png", type = "image/png"): Promise<string> {
  const form = new FormData();
  form.append("file", new File([new Uint8Array(bytes)], name, { type }));
  const res = await call(uploads, "POST", "/v1/uploads", { token, rawBody: form });
  if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${res.text}`);
  return res.json.url as string;
}

export const createJob = (token: string, body: unknown) => call(bgRemove, "POST", "/v1/services/bg-remove", { token, body });
export const getJob = (token: string, jobId: string) =>
  call(bgRemoveJob, "GET", `/v1/services/bg-remove/${jobId}`, { token, params: { jobId } });

/**
 * Polls GET like a client would, until the job ends. Once a second: the account's
 * rate limit (120 a minute) is shared by every poll of a test, and on a loaded
 * machine a cut-out can take over 30 s.
 */
export async function pollJob(token: string, jobId: string, timeoutMs = 150_000, everyMs = 1_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await getJob(token, jobId);
    if (res.status !== 200) throw new Error(`GET job answered ${res.status}: ${res.text}`);
    if (res.json.status === "completed" || res.json.status === "failed") return res.json;
    if (Date.now() > until) throw new Error(`job ${jobId} still ${res.json.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export async function balanceOf(token: string): Promise<number> {
  return (await call(wallet, "GET", "/v1/wallet", { token })).json.balance;
}

/** The whole ledger (newest first), through the public endpoint. */
export async function ledgerOf(token: string): Promise<any[]> {
  const all: any[] = [];
  for (let page = 1; ; page++) {
    const res = await call(transactions, "GET", `/v1/wallet/transactions?limit=100&page=${page}`, { token });
    all.push(...res.json.data);
    if (!res.json.links.next) return all;
  }
}

/** Reads the PNG a completed job points at, through storage (the URL is one we signed). */
export async function outputPng(outputUrl: string) {
  const key = storage().keyFromOwnUrl(outputUrl);
  if (!key) throw new Error(`not a valid signed URL of ours: ${outputUrl}`);
  const object = await storage().get(key);
  const image = sharp(object!.body);
  const meta = await image.metadata();
  const { data, info } = await image.raw().toBuffer({ resolveWithObject: true });
  return { meta, data, info, contentType: object!.contentType };
}

/** Mean alpha over a rectangle of a decoded RGBA image. */
export function meanAlpha(img: { data: Buffer; info: { width: number; channels: number } }, box: { x: number; y: number; w: number; h: number }): number {
  let sum = 0;
  for (let y = box.y; y < box.y + box.h; y++) {
    for (let x = box.x; x < box.x + box.w; x++) sum += img.data[(y * img.info.width + x) * img.info.channels + 3]!;
  }
  return sum / (box.w * box.h);
}

/** The embedded runner with quick polling and retries, for tests. */
export async function startTestRunner(over: Partial<RunnerOptions> = {}) {
  return startJobRunner({ pollMs: 50, retryBaseMs: 100, retryMaxMs: 400, leaseMs: 5_000, ...over });
}

/**
 * Stops the runner. The engine's workers are left to the process's exit (they
 * hold nothing open once idle): terminating a worker thread that holds an
 * onnxruntime session aborts the whole process.
 */
export async function stopAll() {
  await stopJobRunner({ drainMs: 0 });
}

/** Mean of each channel over a rectangle of a raw image. */
export function meanChannels(img: { data: Buffer; info: { width: number; channels: number } }, box: { x: number; y: number; w: number; h: number }): number[] {
  const sums = new Array(img.info.channels).fill(0);
  for (let y = box.y; y < box.y + box.h; y++) {
    for (let x = box.x; x < box.x + box.w; x++) {
      for (let c = 0; c < img.info.channels; c++) sums[c] += img.data[(y * img.info.width + x) * img.info.channels + c]!;
    }
  }
  return sums.map((s) => s / (box.w * box.h));
}
