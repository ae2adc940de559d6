// Shared steps of the Face Crop tests: real routes, real storage, the real engine,
// a local HTTP server playing the caller's image host.
import http from "node:http";
import type { AddressInfo } from "node:net";
import * as faceCrop from "@/app/v1/services/studio/face-crop/route";
import * as faceCropUpload from "@/app/v1/services/studio/face-crop/upload/route";
import * as faceCropResult from "@/app/v1/services/studio/face-crop/results/[resultId]/route";
import * as studioJob from "@/app/v1/services/studio/jobs/[taskId]/route";
import { call } from "../http";

export const cropUrls = (token: string, body: unknown) => call(faceCrop, "POST", "/v1/services/studio/face-crop", { token, body });

export type Part = { name: string; bytes: Buffer; type?: string };
export function uploadForm(parts: Part[], fields: Record<string, string> = { icp_type: "school" }) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const p of parts) form.append("file[]", new File([new Uint8Array(p.bytes)], p.name, { type: p.type ?? "image/jpeg" }));
  return form;
}
export const cropUpload = (token: string, form: FormData) => call(faceCropUpload, "POST", "/v1/services/studio/face-crop/upload", { token, rawBody: form });
export const getTask = (token: string, taskId: string) => call(studioJob, "GET", `/v1/services/studio/jobs/${taskId}`, { token, params: { taskId } });
export const recrop = (token: string, resultId: string, body: unknown) =>
  call(faceCropResult, "PUT", `/v1/services/studio/face-crop/results/${resultId}`, { token, body, params: { resultId } });

/** Polls a GET like a client until the resource's `status` is completed or failed; its body then. */
export async function pollUntilEnded(get: () => Promise<{ status: number; json: any; text: string }>, what: string, timeoutMs: number) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await get();
    if (res.status !== 200) throw new Error(`GET ${what} answered ${res.status}: ${res.text}`);
    if (res.json.status === "completed" || res.json.status === "failed") return res.json;
    if (Date.now() > until) throw new Error(`${what} still ${res.json.status} after ${timeoutMs} ms`);
    // Twice a second: the account's rate limit (120 a minute) then holds for a minute of polling on a loaded machine.
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** Polls GET /v1/services/studio/jobs/{taskId} until the task ends. */
export const pollTask = (token: string, taskId: string, timeoutMs = 120_000) => pollUntilEnded(() => getTask(token, taskId), `task ${taskId}`, timeoutMs);

/** Serves `files` at http://127.0.0.1:<port>/<name>; anything else is a 404. */
export async function imageHost(files: Record<string, Buffer>) {
  const server = http.createServer((req, res) => {
    const name = decodeURIComponent((req.url ?? "/").slice(1));
    const body = files[name];
    if (!body) return void res.writeHead(404).end("not here");
    res.writeHead(200, { "content-type": "image/jpeg" }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, close: () => new Promise<void>((r) => server.close(() => r())) };
}
