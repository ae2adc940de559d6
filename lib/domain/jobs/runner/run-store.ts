import { and, eq, inArray, isNull, ne, or, sql } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { jobRuns, jobSteps } from "@/lib/foundation/db/schema";
import { JobInterruptedError, JobTimeoutError, serializeError, type SerializedError } from "../job-errors";

/**
 * The embedded runner's queries. Every claim writes a fresh token into
 * `locked_by` ("<instance>#<n>"), and every later write is fenced by it: an
 * attempt that lost its lease (its process stalled, or it outlived its time
 * limit and was abandoned) can no longer change the run or record its steps,
 * even in the same process.
 */

export type JobRunRow = typeof jobRuns.$inferSelect;
export type Phase = "run" | "failure";
export type ClaimedRun = { run: JobRunRow; phase: Phase };

const msFromNow = (ms: number) => sql`now() + (${Math.max(0, Math.round(ms))}::int * interval '1 millisecond')`;

/**
 * Takes the next run this instance may work on, in one short transaction
 * (SKIP LOCKED: several instances on one PostgreSQL never take the same run).
 * Claimable: queued and due; failing (its failure handler is pending); running
 * with a lapsed lease (its process died); or any unfinished run past its time limit.
 */
export async function claimNextRun(
  db: Db,
  opts: { token: string; functionIds: string[]; leaseMs: number },
): Promise<ClaimedRun | null> {
  if (opts.functionIds.length === 0) return null;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ run: jobRuns, overdue: sql<boolean>`${jobRuns.deadline} <= now()` })
      .from(jobRuns)
      .where(
        and(
          inArray(jobRuns.functionId, opts.functionIds),
          inArray(jobRuns.status, ["queued", "running", "failing"]),
          or(isNull(jobRuns.leaseUntil), sql`${jobRuns.leaseUntil} < now()`),
          or(sql`${jobRuns.runAfter} <= now()`, and(ne(jobRuns.status, "failing"), sql`${jobRuns.deadline} <= now()`)),
        ),
      )
      // Refunds first: a failure handler returns tokens, so it never waits behind new work.
      .orderBy(sql`(${jobRuns.status} = 'failing') desc`, jobRuns.runAfter)
      .limit(1)
      .for("update", { skipLocked: true });
    if (!row) return null;
    const { run, overdue } = row;

    let phase: Phase = "run";
    let attempt = run.attempt;
    let lastError: SerializedError | null = run.lastError ?? null;
    if (run.status === "failing") {
      phase = "failure";
    } else if (overdue) {
      phase = "failure";
      lastError = serializeError(new JobTimeoutError(run.deadline.getTime() - run.eventTs.getTime()));
    } else if (run.status === "running" && run.attempt >= run.maxAttempts) {
      // Its last attempt was cut short by a crash: no attempts left.
      phase = "failure";
      lastError = serializeError(new JobInterruptedError(run.attempt));
    } else {
      attempt += 1;
    }
    const [claimed] = await tx
      .update(jobRuns)
      .set({
        status: phase === "run" ? "running" : "failing",
        attempt,
        lastError,
        lockedBy: opts.token,
        leaseUntil: msFromNow(opts.leaseMs),
        updatedAt: new Date(),
      })
      .where(eq(jobRuns.id, run.id))
      .returning();
    return { run: claimed!, phase };
  });
}

export type RunOutcome =
  | { kind: "completed"; output: unknown }
  | { kind: "retry"; error: SerializedError; delayMs: number }
  | { kind: "to-failure"; error: SerializedError }
  | { kind: "failed" }
  | { kind: "failure-retry"; delayMs: number }
  /** The runner is stopping: give the attempt back uncounted. */
  | { kind: "released"; phase: Phase };

/** Records how a claimed run ended and lets go of it. False when the lease was already lost. */
export async function releaseRun(db: Db, run: JobRunRow, outcome: RunOutcome): Promise<boolean> {
  const base = { lockedBy: null, leaseUntil: null, updatedAt: new Date() };
  const set = (() => {
    switch (outcome.kind) {
      case "completed":
        return { ...base, status: "completed" as const, output: outcome.output ?? null, finishedAt: new Date() };
      case "retry":
        return { ...base, status: "queued" as const, lastError: outcome.error, runAfter: msFromNow(outcome.delayMs) };
      case "to-failure":
        return { ...base, status: "failing" as const, lastError: outcome.error, runAfter: sql`now()` };
      case "failed":
        return { ...base, status: "failed" as const, finishedAt: new Date() };
      case "failure-retry":
        return { ...base, status: "failing" as const, runAfter: msFromNow(outcome.delayMs) };
      case "released":
        return outcome.phase === "run"
          ? { ...base, status: "queued" as const, attempt: Math.max(0, run.attempt - 1), runAfter: sql`now()` }
          : { ...base, status: "failing" as const };
    }
  })();
  const rows = await db
    .update(jobRuns)
    .set(set)
    .where(and(eq(jobRuns.id, run.id), eq(jobRuns.lockedBy, run.lockedBy!)))
    .returning({ id: jobRuns.id });
  return rows.length > 0;
}

/** Extends the leases of the claims (tokens) this instance holds; returns the tokens still held. */
export async function renewLeases(db: Db, tokens: string[], leaseMs: number): Promise<Set<string>> {
  if (tokens.length === 0) return new Set();
  const rows = await db
    .update(jobRuns)
    .set({ leaseUntil: msFromNow(leaseMs) })
    .where(inArray(jobRuns.lockedBy, tokens))
    .returning({ token: jobRuns.lockedBy });
  return new Set(rows.map((r) => r.token!));
}

/**
 * With PGlite only this process can hold the database (a lock file guarantees
 * it), so any run still locked at start belongs to a process that died: make
 * them claimable now instead of after their lease lapses.
 */
export async function expireForeignLeases(db: Db, instanceId: string): Promise<number> {
  const rows = await db
    .update(jobRuns)
    .set({ leaseUntil: sql`now() - interval '1 second'` })
    .where(and(sql`${jobRuns.lockedBy} is not null`, sql`${jobRuns.lockedBy} not like ${`${instanceId}#%`}`))
    .returning({ id: jobRuns.id });
  return rows.length;
}

export async function loadSteps(db: Db, runId: string): Promise<Map<string, { data?: unknown }>> {
  const rows = await db.select({ stepId: jobSteps.stepId, output: jobSteps.output }).from(jobSteps).where(eq(jobSteps.runId, runId));
  return new Map(rows.map((r) => [r.stepId, r.output]));
}

/** Stores a finished step, only while the claim (token) still holds the run. */
export async function saveStep(
  db: Db,
  input: { runId: string; stepId: string; output: { data?: unknown }; token: string },
): Promise<"saved" | "lease-lost"> {
  return db.transaction(async (tx) => {
    const [run] = await tx.select({ lockedBy: jobRuns.lockedBy }).from(jobRuns).where(eq(jobRuns.id, input.runId)).for("update");
    if (run?.lockedBy !== input.token) return "lease-lost";
    await tx.insert(jobSteps).values({ runId: input.runId, stepId: input.stepId, output: input.output }).onConflictDoNothing();
    return "saved";
  });
}
