// Proves the production build runs alone: copies .next/standalone (after
// `npm run build`) into an empty folder, starts it there on the embedded defaults
// (PGlite, local files, embedded runner) with no source tree and no tsx beside it,
// and completes one job of every engine over real HTTP. A worker file or model
// file missing from the trace fails here.
//
//   npm run build && npm run smoke:standalone
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import net from "node:net";
import sharp from "sharp";
import { PDFDocument, StandardFonts, rgb } from "pdf-lib";

const DIST = process.env.NEXT_DIST_DIR ?? ".next";
const STANDALONE = path.resolve(DIST, "standalone");
const OPERATOR_TOKEN = "smoke-operator-token-0123456789";
const JOB_TIMEOUT_MS = 240_000;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are checked field by field below
type Json = Record<string, any>;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer().listen(0, "127.0.0.1", () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

function copyAlone(): string {
  if (!fs.existsSync(path.join(STANDALONE, "server.js"))) throw new Error(`${STANDALONE}/server.js not found: run \`npm run build\` first`);
  const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "standalone-")), "app");
  fs.cpSync(STANDALONE, dir, { recursive: true, verbatimSymlinks: true });
  // Nothing of the source tree may be needed: no TypeScript, no tsx.
  const stray = ["tsconfig.json", "node_modules/tsx", "node_modules/typescript"].filter((p) => fs.existsSync(path.join(dir, p)));
  if (stray.length) throw new Error(`the standalone output carries ${stray.join(", ")}`);
  return dir;
}

function startServer(dir: string, port: number): { child: ChildProcess; output: () => string } {
  let output = "";
  const child = spawn(process.execPath, ["server.js"], {
    cwd: dir,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: "production",
      PORT: String(port),
      HOSTNAME: "127.0.0.1",
      DATA_DIR: path.join(dir, ".data"),
      OPERATOR_TOKEN,
      NEXT_TELEMETRY_DISABLED: "1",
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  return { child, output: () => output };
}

async function main() {
  const started = Date.now();
  const dir = copyAlone();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = startServer(dir, port);
  const results: string[] = [];
  const step = (msg: string) => {
    results.push(msg);
    console.log(`  ok  ${msg} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  };
  try {
    await waitFor(async () => (await fetch(`${base}/api/health`).catch(() => null))?.ok === true, 60_000, "the server to answer /api/health");
    step(`standalone server up from ${dir}`);

    const api = async (method: string, p: string, body?: unknown, token?: string, headers: Record<string, string> = {}) => {
      const isForm = body instanceof FormData;
      const res = await fetch(`${base}${p}`, {
        method,
        headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body && !isForm ? { "content-type": "application/json" } : {}), ...headers },
        body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
      });
      const text = await res.text();
      let json: Json = {};
      try {
        json = JSON.parse(text);
      } catch {
        /* not JSON */
      }
      return { status: res.status, json, text };
    };
    const expectStatus = (res: { status: number; text: string }, status: number, what: string) => {
      if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status}: ${res.text.slice(0, 400)}`);
    };

    // A fresh premium account with tokens, through the operator API.
    const email = `smoke-${Date.now()}@example.com`;
    const password = "a long enough passphrase";
    expectStatus(await api("POST", "/v1/auth/register", { email, password, name: "Smoke" }), 201, "register");
    const tokenRes = await api("POST", "/v1/auth/token", { email, password });
    expectStatus(tokenRes, 200, "token");
    const token = tokenRes.json.access_token as string;
    const op = { authorization: `Bearer ${OPERATOR_TOKEN}` };
    expectStatus(await api("POST", "/v1/operator/grants", { email, tokens: 2000, reason: "smoke" }, undefined, op), 201, "grant");
    expectStatus(await api("PUT", "/v1/operator/plan", { email, plan: "premium" }, undefined, op), 200, "plan");
    step("account registered, granted and made premium");

    const upload = async (bytes: Buffer, name: string, type: string) => {
      const form = new FormData();
      form.append("file", new File([new Uint8Array(bytes)], name, { type }));
      const res = await api("POST", "/v1/uploads", form, token);
      expectStatus(res, 201, `upload ${name}`);
      return res.json.url as string;
    };

    // Background removal: the ONNX worker, its native library and the model weights.
    const photo = fs.readFileSync(path.resolve("lib/ml/background-removal/fixtures/coffee.png"));
    const created = await api("POST", "/v1/services/bg-remove", { image_url: await upload(photo, "coffee.png", "image/png") }, token);
    expectStatus(created, 202, "bg-remove");
    let job: Json = {};
    await waitFor(
      async () => {
        job = (await api("GET", `/v1/services/bg-remove/${created.json.job_id}`, undefined, token)).json;
        return job.status === "completed" || job.status === "failed";
      },
      JOB_TIMEOUT_MS,
      "the background removal job",
      1_000,
    );
    if (job.status !== "completed") throw new Error(`bg-remove failed: ${job.error_message}`);
    const cutout = await sharp(Buffer.from(await (await fetch(job.output_url)).arrayBuffer())).metadata();
    if (!cutout.hasAlpha || cutout.width !== 600) throw new Error(`bg-remove output is not a 600 px RGBA PNG: ${JSON.stringify(cutout)}`);
    step("background removal completed (transparent PNG at full size)");

    // Preflight of a PDF and a JPEG: the analysis worker thread.
    const pdf = await PDFDocument.create();
    const page = pdf.addPage([576, 720]);
    page.drawText("Smoke test", { x: 72, y: 600, size: 36, font: await pdf.embedFont(StandardFonts.Helvetica), color: rgb(0.8, 0.1, 0.1) });
    const pdfUrl = await upload(Buffer.from(await pdf.save()), "flyer.pdf", "application/pdf");
    const pdfCheck = await api("POST", "/v1/services/preflight/checks", { designId: "smoke-pdf", fileUrl: pdfUrl, canvasWidthInches: 8, canvasHeightInches: 10 }, token);
    expectStatus(pdfCheck, 201, "preflight PDF");
    if (pdfCheck.json.data.fileType !== "pdf" || pdfCheck.json.data.file.pageCount !== 1) throw new Error(`preflight PDF: ${pdfCheck.text.slice(0, 400)}`);
    const jpeg = await sharp({ create: { width: 600, height: 480, channels: 3, background: "#3366cc" } }).jpeg().withMetadata({ density: 300 }).toBuffer();
    const jpegCheck = await api("POST", "/v1/services/preflight/checks", { designId: "smoke-jpeg", fileUrl: await upload(jpeg, "photo.jpg", "image/jpeg"), canvasWidthInches: 2, canvasHeightInches: 1.6 }, token);
    expectStatus(jpegCheck, 201, "preflight JPEG");
    if (jpegCheck.json.data.fileType !== "jpeg" || jpegCheck.json.data.status !== "pass") throw new Error(`preflight JPEG: ${jpegCheck.text.slice(0, 400)}`);
    step(`preflight of a PDF (${pdfCheck.json.data.status}) and a JPEG (pass)`);

    // Bulk QR: the embedded fonts and the PDF writer.
    const qr = await api(
      "POST",
      "/v1/services/studio/qr/generate",
      { job_id: "SMOKE", school_name: "Smoke School", subjects: [{ student_id: "S1", name: "Zoë Ørsted-Nguyễn", class_name: "5A" }, { student_id: "S2", name: "山田 太郎" }] },
      token,
    );
    expectStatus(qr, 200, "bulk QR");
    const qrPdf = await PDFDocument.load(new Uint8Array(await (await fetch(qr.json.pdf_url)).arrayBuffer()));
    if (qrPdf.getPageCount() < 1) throw new Error("bulk QR PDF has no pages");
    step("Bulk QR PDF generated and downloaded");

    console.log(`standalone smoke: ${results.length} passed, 0 failed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } catch (err) {
    console.error(`standalone smoke failed: ${err instanceof Error ? err.message : String(err)}`);
    console.error("--- server output ---\n" + server.output().slice(-6000));
    process.exitCode = 1;
  } finally {
    try {
      process.kill(-server.child.pid!, "SIGKILL");
    } catch {
      /* already gone */
    }
    fs.rmSync(path.dirname(dir), { recursive: true, force: true });
  }
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number, what: string, everyMs = 250) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

void main();
