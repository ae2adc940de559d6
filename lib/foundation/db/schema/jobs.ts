import { index, integer, jsonb, pgEnum, pgTable, primaryKey, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

/**
 * The embedded durable runner's state (lib/domain/jobs/runner). Unused when jobs go to
 * Inngest, which keeps this state itself.
 *
 * queued:    waiting for an attempt (run_after says when: backoff after a failed attempt)
 * running:   an attempt was started by `locked_by`; a lease that lapses means that
 *            process died, and the run is claimable again (the crashed attempt counts)
 * failing:   out of attempts (or out of time): the failure handler still has to run
 * completed, failed: terminal
 */
export const jobRunStatusEnum = pgEnum("job_run_status", ["queued", "running", "failing", "completed", "failed"]);

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

export const jobRuns = pgTable(
  "job_runs",
  {
    /** `run_...` */
    id: text("id").primaryKey(),
    /** The Inngest function id of the definition that runs this (e.g. "bg-remove"). */
    functionId: text("function_id").notNull(),
    /** The triggering event: id (idempotency key), name, data, time (ms since epoch). */
    eventId: text("event_id").notNull(),
    eventName: text("event_name").notNull(),
    eventData: jsonb("event_data").$type<Record<string, unknown>>().notNull(),
    eventTs: ts("event_ts").notNull(),
    status: jobRunStatusEnum("status").notNull().default("queued"),
    /** Attempts started so far (a crashed attempt counts). */
    attempt: integer("attempt").notNull().default(0),
    maxAttempts: integer("max_attempts").notNull(),
    /** Not claimable before this (backoff). */
    runAfter: ts("run_after").notNull().defaultNow(),
    /** The time limit: past it the run goes to its failure handler whatever it is doing. */
    deadline: ts("deadline").notNull(),
    /** The runner instance holding the run, and until when (renewed while it works). */
    lockedBy: text("locked_by"),
    leaseUntil: ts("lease_until"),
    /** The last attempt's error ({ name, message }); the failure handler receives it. */
    lastError: jsonb("last_error").$type<{ name: string; message: string }>(),
    /** The handler's return value once completed. */
    output: jsonb("output"),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
    finishedAt: ts("finished_at"),
  },
  (t) => [
    // One run per function per event: starting the same event twice is a no-op.
    uniqueIndex("job_runs_function_event_key").on(t.functionId, t.eventId),
    index("job_runs_claim_idx").on(t.status, t.runAfter),
  ],
);

/**
 * Memoised step results: a step that finished is never run again for its run;
 * retries and restarts replay its stored output instead. Failure-handler steps
 * are stored under a "failure:" prefix.
 */
export const jobSteps = pgTable(
  "job_steps",
  {
    runId: text("run_id")
      .notNull()
      .references(() => jobRuns.id, { onDelete: "cascade" }),
    stepId: text("step_id").notNull(),
    /** `{ data }` so that a step returning undefined or null is still "done". */
    output: jsonb("output").$type<{ data?: unknown }>().notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.stepId] })],
);
