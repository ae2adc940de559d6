import { spawn, type ChildProcess } from "node:child_process";
import readline from "node:readline";
import { afterAll, describe, expect, it } from "vitest";
import sharp from "sharp";
import { eq } from "drizzle-orm";
import { closeDb, dbHandle, getDb } from "@/lib/foundation/db/client";
import { jobRuns, jobSteps } from "@/lib/foundation/db/schema";
import { testAccount } from "../http";
import { balanceOf, createJob, fixture, ledgerOf, pollJob, startTestRunner, stopAll, upload } from "./bg-remove-harness";
import { sleep } from "./runner-harness";

// A server process dies (SIGKILL) while it is removing backgrounds. After a
// restart every unfinished job reaches an end: the one with attempts left
// resumes after its finished steps and completes; the one whose crash used its
// last attempt fails and is refunded. The wallet matches the outcomes.

let child: ChildProcess | undefined;
afterAll(async () => {
  child?.kill("SIGKILL");
  await stopAll();
});

/** Starts the runner in another process and resolves once `enough` says so, given the steps it has reported. */
function runChildUntil(enough: (steps: string[]) => boolean): Promise<string[]> {
  child = spawn(process.execPath, ["--import", "tsx", "test/jobs/runner-child.ts"], {
    cwd: process.cwd(),
    env: { ...process.env, JOB_LEASE_MS: "3000", JOB_RETRY_BASE_MS: "100" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const steps: string[] = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the child never got there; steps: ${steps.join(", ")}`)), 120_000);
    readline.createInterface({ input: child!.stdout! }).on("line", (line) => {
      if (!line.startsWith("STEP ")) return;
      steps.push(line.slice(5));
      if (enough(steps)) {
        clearTimeout(timer);
        resolve(steps);
      }
    });
    child!.on("exit", (code) => reject(new Error(`the child exited (${code}) before the kill`)));
  });
}

async function killChild() {
  const c = child!;
  c.removeAllListeners("exit");
  const exited = new Promise((r) => c.once("exit", r));
  c.kill("SIGKILL");
  await exited;
  child = undefined;
}

/** PGlite: the dead process's lock goes stale after its staleness period (lib/foundation/db/data-dir-lock.ts); until then opening is refused. */
async function reopenDb() {
  for (let i = 0; ; i++) {
    try {
      return await dbHandle();
    } catch (err) {
      if (i > 180 || !/already in use/.test(String(err))) throw err;
      await sleep(500);
    }
  }
}

describe("crash recovery", () => {
  it("a killed runner's jobs resume or fail-and-refund after a restart, and the wallet matches", async () => {
    const { token } = await testAccount({ tokens: 1000 });
    const image = await sharp(fixture("coffee.png")).resize(300).png().toBuffer();
    const a = await createJob(token, { image_url: await upload(token, image, "a.png") });
    const b = await createJob(token, { image_url: await upload(token, image, "b.png") });
    expect([a.status, b.status]).toEqual([202, 202]);
    expect(await balanceOf(token)).toBe(700);

    const db = await getDb();
    const runFor = async (jobId: string) => (await db.select().from(jobRuns)).find((r) => (r.eventData as { jobId: string }).jobId === jobId)!;
    const runA = (await runFor(a.json.job_id)).id;
    const runB = (await runFor(b.json.job_id)).id;
    const pglite = (await dbHandle()).driver === "pglite";
    if (pglite) await closeDb(); // one process at a time on an embedded database

    // Both runs have fetched their source and are in (or queued for) the model when the process dies.
    await runChildUntil((steps) => steps.includes(`${runA} fetch-source`) && steps.includes(`${runB} fetch-source`));
    await killChild();

    const db2 = pglite ? (await reopenDb()).db : db;
    const before = await db2.select().from(jobRuns).where(eq(jobRuns.id, runA));
    expect(before[0]).toMatchObject({ status: "running", attempt: 1 });
    expect(before[0]!.lockedBy).not.toBeNull();
    const fetchedAt = (await db2.select().from(jobSteps).where(eq(jobSteps.runId, runA))).find((s) => s.stepId === "fetch-source")!.createdAt;
    // B stands for a job whose earlier attempts were used up (say, an image that crashed the server each time).
    await db2.update(jobRuns).set({ maxAttempts: 1 }).where(eq(jobRuns.id, runB));

    // Restart: on PGlite the runner takes over the dead process's runs at once; on PostgreSQL after their 3 s lease.
    await startTestRunner();
    const jobA = await pollJob(token, a.json.job_id, 180_000, 500);
    const jobB = await pollJob(token, b.json.job_id, 180_000, 500);
    expect(jobA.status).toBe("completed");
    expect(jobB).toMatchObject({ status: "failed", error_message: "The job was interrupted 1 time (server restart or crash) and was stopped." });

    const [afterA] = await db2.select().from(jobRuns).where(eq(jobRuns.id, runA));
    expect(afterA).toMatchObject({ status: "completed", attempt: 2 });
    // The source was fetched once, by the process that died: the restart replayed that step.
    const stepsA = await db2.select().from(jobSteps).where(eq(jobSteps.runId, runA));
    expect(stepsA.find((s) => s.stepId === "fetch-source")!.createdAt).toEqual(fetchedAt);
    expect(stepsA.map((s) => s.stepId).sort()).toEqual(["complete-job", "fetch-source", "load-job", "remove-background"]);

    // Wallet: A paid, B refunded once.
    expect(await balanceOf(token)).toBe(850);
    const ledger = await ledgerOf(token);
    expect(ledger.filter((t) => t.type === "debit")).toHaveLength(2);
    const refunds = ledger.filter((t) => t.type === "refund");
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ refund_of: b.json.wallet_transaction_id, amount: 150 });
    expect(ledger.reduce((sum, t) => sum + t.amount, 0)).toBe(850);
  }, 300_000);
});
