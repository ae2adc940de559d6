import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

// A server killed with SIGKILL leaves the embedded database's lock behind, still
// fresh. Restarted at once, the next start must see that the holder is gone and
// start (not wait out the lock's staleness, not stay up serving 500s); a start
// that truly cannot open the database must exit non-zero saying why.

const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill("SIGKILL");
});

type Started = { child: ChildProcess; up: Promise<number>; exit: Promise<number | null>; output: () => string };

function startServer(dataDir: string, env: Record<string, string> = {}): Started {
  const child = spawn(process.execPath, ["--import", "tsx", "test/startup/server-child.ts"], {
    cwd: process.cwd(),
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", JOB_WARM_UP: "off", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let output = "";
  const started = Date.now();
  const up = new Promise<number>((resolve) => {
    child.stdout!.on("data", (d: Buffer) => {
      output += d;
      if (/^UP$/m.test(output)) resolve(Date.now() - started);
    });
  });
  child.stderr!.on("data", (d: Buffer) => (output += d));
  const exit = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, up, exit, output: () => output };
}

const within = <T>(p: Promise<T>, ms: number, what: string) =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} took over ${ms} ms`)), ms))]);

describe.runIf(!process.env.DATABASE_URL)("restart right after a crash (embedded database)", () => {
  it("starts at once after SIGKILL, and a start that cannot get the database exits 1 with the reason", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "restart-"));
    const first = startServer(dataDir);
    await within(first.up, 90_000, "the first start");
    expect(fs.existsSync(path.join(dataDir, "PG_LOCK_TARGET.lock"))).toBe(true);

    first.child.kill("SIGKILL");
    expect(await first.exit).toBeNull();
    // The dead process's lock is still there and fresh (under 30 s old).
    expect(Date.now() - fs.statSync(path.join(dataDir, "PG_LOCK_TARGET.lock")).mtimeMs).toBeLessThan(30_000);

    const second = startServer(dataDir);
    // Well under the lock's 30 s staleness: the start saw that its holder is gone.
    const tookMs = await within(second.up, 25_000, `the restart (output: ${second.output()})`);
    expect(second.output()).toContain("no longer runs; taking the lock over");
    expect(tookMs).toBeLessThan(25_000);

    // A live holder: a third start waits (here 1 s), then exits non-zero naming the problem.
    const third = startServer(dataDir, { DATA_DIR_LOCK_WAIT_MS: "1000" });
    expect(await within(third.exit, 60_000, "the refused start")).toBe(1);
    expect(third.output()).toContain("cannot start");
    expect(third.output()).toContain("already in use by another process");

    // The second server still holds its database and was not disturbed.
    expect(second.child.exitCode).toBeNull();
  }, 180_000);
});
