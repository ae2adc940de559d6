// Shared steps of the AI fix job tests: real routes, real storage, real
// engines (sharp, pdf-lib, Ghostscript), the embedded runner on the test's own database.
import sharp from "sharp";
import * as aiJobs from "@/app/v1/services/preflight/ai-jobs/route";
import * as aiJob from "@/app/v1/services/preflight/ai-jobs/[jobId]/route";
import * as approve from "@/app/v1/services/preflight/ai-jobs/[jobId]/approve/route";
import * as reject from "@/app/v1/services/preflight/ai-jobs/[jobId]/reject/route";
import * as wallet from "@/app/v1/wallet/route";
import * as transactions from "@/app/v1/wallet/transactions/route";
import { storage } from "@/lib/domain/storage";
import { startJobRunner, stopJobRunner } from "@/lib/domain/jobs/runner/runner-instance";
import { call } from "../http";
import { checkFile } from "../fixtures/preflight/api";

export const createFixJob = (token: string, body: unknown) => call(aiJobs, "POST", "/v1/services/preflight/ai-jobs", { token, body });
export const getFixJob = (token: string, jobId: string) => call(aiJob, "GET", `/v1/services/preflight/ai-jobs/${jobId}`, { token, params: { jobId } });
export const approveFixJob = (token: string, jobId: string, body?: unknown) =>
  call(approve, "POST", `/v1/services/preflight/ai-jobs/${jobId}/approve`, { token, params: { jobId }, body });
export const rejectFixJob = (token: string, jobId: string) => call(reject, "POST", `/v1/services/preflight/ai-jobs/${jobId}/reject`, { token, params: { jobId } });

/** Checks a file through the real endpoint; returns the report's data. */
export async function reportFor(token: string, bytes: Buffer, request: Record<string, unknown>) {
  const res = await checkFile(token, bytes, request);
  if (res.status !== 201) throw new Error(`check failed: ${res.status} ${res.text}`);
  return res.json.data;
}

const ENDED = ["completed", "failed", "rejected", "awaiting_approval"];
/** Polls GET like a client would, until the job ends or waits for approval. */
export async function pollFixJob(token: string, jobId: string, timeoutMs = 120_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await getFixJob(token, jobId);
    if (res.status !== 200) throw new Error(`GET job answered ${res.status}: ${res.text}`);
    if (ENDED.includes(res.json.data.status)) return res.json.data;
    if (Date.now() > until) throw new Error(`job ${jobId} still ${res.json.data.status} after ${timeoutMs} ms`);
    // Every 500 ms: a slow job (the WebAssembly Ghostscript under load) stays under the 120 requests a minute limit.
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** Creates a job and waits for it; fails the test on anything but 202. */
export async function runFixJob(token: string, body: unknown) {
  const created = await createFixJob(token, body);
  if (created.status !== 202) throw new Error(`create answered ${created.status}: ${created.text}`);
  return pollFixJob(token, created.json.data.jobId);
}

/** The bytes behind one of our signed URLs. */
export async function fetchOwn(url: string): Promise<{ body: Buffer; contentType: string }> {
  const key = storage().keyFromOwnUrl(url);
  if (!key) throw new Error(`not a signed URL of ours: ${url}`);
  const object = await storage().get(key);
  if (!object) throw new Error(`nothing stored at ${key}`);
  return object;
}

export async function balanceOf(token: string): Promise<number> {
  return (await call(wallet, "GET", "/v1/wallet", { token })).json.balance;
}

export async function ledgerOf(token: string): Promise<any[]> {
  const res = await call(transactions, "GET", "/v1/wallet/transactions?limit=100", { token });
  return res.json.data;
}

export const startTestRunner = () => startJobRunner({ pollMs: 50, retryBaseMs: 100, retryMaxMs: 400, leaseMs: 10_000 });
export const stopTestRunner = () => stopJobRunner({ drainMs: 0 });

/** A picture with structure (gradients, shapes, text-like bars), so sameness and mirrors can be measured. */
export async function photoLike(width: number, height: number, format: "jpeg" | "png" = "jpeg"): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#2a6fdb"/><stop offset="1" stop-color="#f2c14e"/></linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>
    <circle cx="${width * 0.3}" cy="${height * 0.4}" r="${Math.min(width, height) * 0.2}" fill="#c0392b"/>
    <rect x="${width * 0.55}" y="${height * 0.2}" width="${width * 0.3}" height="${height * 0.08}" fill="#111"/>
    <rect x="${width * 0.55}" y="${height * 0.35}" width="${width * 0.25}" height="${height * 0.05}" fill="#fff"/>
  </svg>`;
  const img = sharp(Buffer.from(svg)).withIccProfile("srgb");
  return format === "jpeg" ? img.jpeg({ quality: 95 }).toBuffer() : img.png().toBuffer();
}
