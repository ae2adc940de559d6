import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { parseEnv } from "@/lib/foundation/parse-env";

/**
 * Ghostscript (AGPL) always runs in a separate process, never linked into
 * ours: the system `gs` where installed, else Ghostscript compiled to
 * WebAssembly (@jspawn/ghostscript-wasm) in a child Node process.
 * GHOSTSCRIPT_ENGINE=system|wasm forces one (tests and benchmarks use it).
 */
export type GhostscriptEngine = "gs-system" | "gs-wasm";

export class GhostscriptError extends Error {
  constructor(
    message: string,
    readonly kind: "failed" | "timeout" | "unavailable" | "aborted",
    readonly stderr = "",
  ) {
    super(message);
    this.name = "GhostscriptError";
  }
}

let systemGs: boolean | undefined;
function hasSystemGs(): boolean {
  if (systemGs === undefined) {
    try {
      execFileSync("gs", ["--version"], { stdio: "ignore", timeout: 5000 });
      systemGs = true;
    } catch {
      systemGs = false;
    }
  }
  return systemGs;
}

export function ghostscriptEngine(): GhostscriptEngine {
  // Read on every call: a test switches it between runs.
  const wanted = parseEnv(z.object({ GHOSTSCRIPT_ENGINE: z.enum(["auto", "system", "wasm"]).default("auto") }), process.env, "Ghostscript").GHOSTSCRIPT_ENGINE;
  if (wanted === "wasm") return "gs-wasm";
  if (wanted === "system") {
    if (!hasSystemGs()) throw new GhostscriptError("GHOSTSCRIPT_ENGINE=system but no `gs` is installed.", "unavailable");
    return "gs-system";
  }
  return hasSystemGs() ? "gs-system" : "gs-wasm";
}

/**
 * The one place that says how a Ghostscript child process is started (the
 * WebAssembly child script is a file of this folder, resolved from the
 * project root so a production build changes only this function).
 */
export function ghostscriptCommand(engine: GhostscriptEngine, workdir: string, args: string[]): { file: string; argv: string[] } {
  // System gs runs in the work folder: /work/<name> becomes ./<name>.
  if (engine === "gs-system") return { file: "gs", argv: args.map((a) => a.replaceAll("/work/", "./")) };
  const child = path.join(/* turbopackIgnore: true */ process.cwd(), "lib", "engines", "pdf", "ghostscript", "gs-wasm-child.cjs");
  return { file: process.execPath, argv: [child, workdir, JSON.stringify(args)] };
}

/**
 * Runs gs with `args` in a fresh work folder holding `inputs` (name -> bytes);
 * arguments name files as `/work/<name>`. Returns the files named in `outputs`,
 * and every file whose name matches `collect` (a page per file, `page-%04d.png`,
 * where only gs knows how many it wrote), in name order.
 */
export async function runGhostscript(
  args: string[],
  files: { inputs: Record<string, Uint8Array>; outputs: string[]; collect?: RegExp },
  opts: { engine?: GhostscriptEngine; timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<{ outputs: Record<string, Buffer>; engine: GhostscriptEngine; ms: number }> {
  const engine = opts.engine ?? ghostscriptEngine();
  const workdir = await fs.mkdtemp(path.join(os.tmpdir(), "gs-"));
  const started = performance.now();
  try {
    for (const [name, bytes] of Object.entries(files.inputs)) await fs.writeFile(path.join(workdir, name), bytes);
    const { file, argv } = ghostscriptCommand(engine, workdir, ["-dBATCH", "-dNOPAUSE", "-dSAFER", "-dQUIET", ...args]);
    await new Promise<void>((resolve, reject) => {
      const child = spawn(/* turbopackIgnore: true */ file, argv, { cwd: workdir, stdio: ["ignore", "ignore", "pipe"] });
      let stderr = "";
      child.stderr.on("data", (d: Buffer) => {
        if (stderr.length < 64_000) stderr += d.toString();
      });
      const stop = (err: GhostscriptError) => {
        child.kill("SIGKILL");
        reject(err);
      };
      const timer = setTimeout(() => stop(new GhostscriptError(`Ghostscript took longer than ${Math.round((opts.timeoutMs ?? 0) / 1000)} s.`, "timeout")), opts.timeoutMs ?? 600_000);
      const onAbort = () => stop(new GhostscriptError("Ghostscript was stopped.", "aborted"));
      opts.signal?.addEventListener("abort", onAbort, { once: true });
      child.on("error", (err) => {
        clearTimeout(timer);
        reject(new GhostscriptError(`Ghostscript could not start: ${err.message}`, "unavailable"));
      });
      child.on("close", (code) => {
        clearTimeout(timer);
        opts.signal?.removeEventListener("abort", onAbort);
        if (code === 0) resolve();
        else reject(new GhostscriptError(`Ghostscript exited with code ${code}.`, "failed", stderr));
      });
    });
    const outputs: Record<string, Buffer> = {};
    for (const name of files.outputs) {
      const bytes = await fs.readFile(path.join(workdir, name)).catch(() => null);
      if (!bytes || bytes.length === 0) throw new GhostscriptError(`Ghostscript wrote no ${name}.`, "failed");
      outputs[name] = bytes;
    }
    if (files.collect) {
      for (const name of (await fs.readdir(workdir)).filter((n) => files.collect!.test(n)).sort()) outputs[name] = await fs.readFile(path.join(workdir, name));
    }
    return { outputs, engine, ms: performance.now() - started };
  } finally {
    await fs.rm(workdir, { recursive: true, force: true }).catch(() => {});
  }
}
