import { spawn } from "node:child_process";
import readline from "node:readline";
import { describe, expect, it } from "vitest";
import { closeDb, dbHandle, getDb } from "@/lib/foundation/db/client";
import { enqueue, runRow, sleep } from "./runner-harness";
import { shutdownJob } from "./shutdown-job";

// SIGTERM to a server process with two jobs running: the short one finishes
// within the drain time, the long one is given back (queued, the attempt not
// counted) for the next start, and only then does the framework's own
// listener run and exit the process.

describe("graceful shutdown", () => {
  it("on SIGTERM lets running jobs finish, gives the rest back, then hands over to the framework", async () => {
    const short = await enqueue([shutdownJob], { n: 500 });
    const long = await enqueue([shutdownJob], { n: 120_000 });
    const pglite = (await dbHandle()).driver === "pglite";
    if (pglite) await closeDb(); // one process at a time on an embedded database

    const child = spawn(process.execPath, ["--import", "tsx", "test/jobs/shutdown-child.ts"], {
      cwd: process.cwd(),
      env: { ...process.env, DRAIN_MS: "8000" },
      stdio: ["ignore", "pipe", "inherit"],
    });
    const lines: string[] = [];
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    let bothStarted: () => void;
    const started = new Promise<void>((r) => (bothStarted = r));
    readline.createInterface({ input: child.stdout! }).on("line", (line) => {
      lines.push(line);
      if (lines.filter((l) => l.startsWith("STARTED")).length === 2) bothStarted();
    });
    await Promise.race([started, exited.then(() => Promise.reject(new Error(`child exited early: ${lines.join(" | ")}`)))]);
    child.kill("SIGTERM");
    expect(await exited).toBe(143);

    const events = lines.filter((l) => /^(FINISHED|STOPPED|FRAMEWORK)/.test(l));
    expect(events).toEqual(["FINISHED 500", "STOPPED", "FRAMEWORK"]);

    for (let i = 0; pglite; i++) {
      try {
        await dbHandle();
        break;
      } catch (err) {
        if (i > 120 || !/already in use/.test(String(err))) throw err;
        await sleep(500); // the lock is released on exit; allow for a slow file system
      }
    }
    await getDb();
    expect(await runRow(short)).toMatchObject({ status: "completed", output: 500 });
    expect(await runRow(long)).toMatchObject({ status: "queued", attempt: 0, lockedBy: null });
  }, 120_000);
});
