// Drives the production (standalone) server from outside, over real HTTP: used by
// the standalone smoke, the multi-instance run and the deployment benchmark.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { PDFDocument, StandardFonts, rgb } from "pdf-lib";
import { MALLOC_TUNABLES } from "../malloc-tunables.mjs";

export const STANDALONE = path.resolve(process.env.NEXT_DIST_DIR ?? ".next", "standalone");

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are checked field by field by the callers
export type Json = Record<string, any>;
export type Answer = { status: number; json: Json; text: string; headers: Headers };

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer().listen(0, "127.0.0.1", () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

/** Copies .next/standalone into an empty temporary folder; refuses a copy that carries the TypeScript toolchain. */
export function copyStandalone(): string {
  if (!fs.existsSync(path.join(STANDALONE, "server.js"))) throw new Error(`${STANDALONE}/server.js not found: run \`npm run build\` first`);
  const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "standalone-")), "app");
  fs.cpSync(STANDALONE, dir, { recursive: true, verbatimSymlinks: true });
  const stray = ["tsconfig.json", "test", "node_modules/tsx", "node_modules/typescript"].filter((p) => fs.existsSync(path.join(dir, p)));
  if (stray.length) throw new Error(`the standalone output carries ${stray.join(", ")}`);
  return dir;
}

export type Server = { base: string; child: ChildProcess; output: () => string; kill: (signal?: NodeJS.Signals) => Promise<void> };

/**
 * Starts `node server.js` in `dir` with only the given settings (no inherited app settings),
 * and glibc's malloc settings as `npm start` and the Dockerfile give them unless `env` has its own.
 */
export async function startStandalone(dir: string, env: Record<string, string>, port?: number): Promise<Server> {
  const p = port ?? (await freePort());
  let output = "";
  const child = spawn(process.execPath, ["server.js"], {
    cwd: dir,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", GLIBC_TUNABLES: MALLOC_TUNABLES, PORT: String(p), HOSTNAME: "127.0.0.1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  const base = `http://127.0.0.1:${p}`;
  return {
    base,
    child,
    output: () => output,
    kill: async (signal = "SIGKILL") => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      try {
        process.kill(-child.pid!, signal);
      } catch {
        return;
      }
      await exited;
    },
  };
}

export async function waitFor(check: () => Promise<boolean>, timeoutMs: number, what: string, everyMs = 250) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export const waitHealthy = (server: Server, timeoutMs = 90_000) =>
  waitFor(async () => (await fetch(`${server.base}/api/health`)).ok, timeoutMs, `${server.base}/api/health (output: ${server.output().slice(-2000)})`);

/** A tiny HTTP client for /v1. */
export function apiClient(base: string) {
  return async (method: string, p: string, body?: unknown, token?: string, headers: Record<string, string> = {}): Promise<Answer> => {
    const isForm = body instanceof FormData;
    const res = await fetch(`${base}${p}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined && !isForm ? { "content-type": "application/json" } : {}), ...headers },
      body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let json: Json = {};
    try {
      json = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: res.status, json, text, headers: res.headers };
  };
}

export function expectStatus(res: Answer, status: number, what: string) {
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status}: ${res.text.slice(0, 400)}`);
}

type Api = ReturnType<typeof apiClient>;

/** Registers an account, grants it tokens and the premium plan through the operator API; returns its access token. */
export async function premiumAccount(api: Api, operatorToken: string, tokens = 2000): Promise<{ token: string; email: string }> {
  const email = `run-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const password = "a long enough passphrase";
  expectStatus(await api("POST", "/v1/auth/register", { email, password, name: "Runner" }), 201, "register");
  const tokenRes = await api("POST", "/v1/auth/token", { email, password });
  expectStatus(tokenRes, 200, "token");
  const op = { authorization: `Bearer ${operatorToken}` };
  expectStatus(await api("POST", "/v1/operator/grants", { email, tokens, reason: "run" }, undefined, op), 201, "grant");
  expectStatus(await api("PUT", "/v1/operator/plan", { email, plan: "premium" }, undefined, op), 200, "plan");
  return { token: tokenRes.json.access_token as string, email };
}

export async function upload(api: Api, token: string, bytes: Buffer, name: string, type: string): Promise<string> {
  const form = new FormData();
  form.append("file", new File([new Uint8Array(bytes)], name, { type }));
  const res = await api("POST", "/v1/uploads", form, token);
  expectStatus(res, 201, `upload ${name}`);
  return res.json.url as string;
}

export const coffeePhoto = () => fs.readFileSync(path.resolve("lib/engines/ml/background-removal/fixtures/coffee.png"));

/** Polls `get` once a second until the state it returns is completed or failed. */
export async function untilEnded(get: () => Promise<Json>, what: string, timeoutMs = 240_000): Promise<Json> {
  let state: Json = {};
  await waitFor(
    async () => {
      state = await get();
      return state.status === "completed" || state.status === "failed";
    },
    timeoutMs,
    what,
    1_000,
  );
  return state;
}

/** Polls a background removal until it ends. */
export function finishedBgRemoval(api: Api, token: string, jobId: string, timeoutMs = 240_000): Promise<Json> {
  return untilEnded(async () => {
    const res = await api("GET", `/v1/services/bg-remove/${jobId}`, undefined, token);
    return res.status === 200 ? res.json : {};
  }, `background removal ${jobId}`, timeoutMs);
}

export async function onePagePdf(): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([576, 720]);
  page.drawText("Smoke test", { x: 72, y: 600, size: 36, font: await pdf.embedFont(StandardFonts.Helvetica), color: rgb(0.8, 0.1, 0.1) });
  return Buffer.from(await pdf.save());
}

export const bluePhoto = () => sharp({ create: { width: 600, height: 480, channels: 3, background: "#3366cc" } }).jpeg().withMetadata({ density: 300 }).toBuffer();
