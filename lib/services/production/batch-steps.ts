import { and, eq, inArray, ne, sql } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { labBatches, printFiles } from "@/lib/foundation/db/schema";
import { startJob } from "@/lib/domain/jobs/start-job";
import { productionBatchRequested } from "@/lib/domain/jobs/events";

/** The batch's files still to render, in a stable order (the job's step ids follow it). */
export async function filesToRender(db: Db, accountId: string, batchId: string): Promise<string[]> {
  const rows = await db
    .select({ id: printFiles.id })
    .from(printFiles)
    .where(and(eq(printFiles.accountId, accountId), eq(printFiles.batchId, batchId), eq(printFiles.status, "pending")))
    .orderBy(printFiles.id);
  return rows.map((r) => r.id);
}

/**
 * Every file rendered or held: the batch is ready to download. With every file on hold
 * it is held: nothing has failed, it waits for the studio's fixes (each fixed file is
 * rendered into it, and the first that renders makes it ready: wakeHeldBatch).
 */
export async function finishBatch(db: Db, accountId: string, batchId: string): Promise<string> {
  const files = await db.select({ status: printFiles.status }).from(printFiles).where(and(eq(printFiles.accountId, accountId), eq(printFiles.batchId, batchId)));
  const status = files.some((f) => f.status === "rendered") ? "ready" : "held";
  await db
    .update(labBatches)
    .set(status === "ready" ? { status, readyAt: new Date() } : { status })
    .where(and(eq(labBatches.id, batchId), eq(labBatches.accountId, accountId), eq(labBatches.status, "rendering")));
  return status;
}

/** A held batch one of whose files was fixed and rendered: it is ready for the lab (its other files wait on, as in any batch). */
export async function wakeHeldBatch(db: Db, accountId: string, batchId: string): Promise<void> {
  await db
    .update(labBatches)
    .set({ status: "ready", readyAt: new Date() })
    .where(
      and(
        eq(labBatches.id, batchId),
        eq(labBatches.accountId, accountId),
        eq(labBatches.status, "held"),
        sql`exists (select 1 from ${printFiles} where ${printFiles.batchId} = ${labBatches.id} and ${printFiles.status} = 'rendered')`,
      ),
    );
}

/**
 * The job gave up: the batch says so, and lets go of its files that are not on hold, so
 * the next batch takes them (those already rendered are not rendered again).
 */
export async function failBatch(db: Db, accountId: string, batchId: string, message: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [failed] = await tx
      .update(labBatches)
      .set({ status: "failed", error: message })
      .where(and(eq(labBatches.id, batchId), eq(labBatches.accountId, accountId), eq(labBatches.status, "rendering")))
      .returning({ id: labBatches.id });
    if (!failed) return;
    await tx
      .update(printFiles)
      .set({ batchId: null })
      .where(and(eq(printFiles.accountId, accountId), eq(printFiles.batchId, batchId), ne(printFiles.status, "held")));
  });
}

/** A file's batch while it has not gone to the lab (rendering, ready or held: decided in the statement that changes the file, so a batch sent meanwhile is seen); else none, and the next batch takes it. */
export const keptBatch = sql<string | null>`(select ${labBatches.id} from ${labBatches} where ${labBatches.id} = ${printFiles.batchId} and ${labBatches.status} in ('rendering', 'ready', 'held'))`;

/**
 * The lab profile is back (uploaded again) or forgotten (sRGB chosen): the files held
 * because it was missing go back to pending and render again, in their batch while it has
 * not gone to the lab (the batch renders again: its job takes the pending files) or else
 * in the studio's next batch, as a late fix does.
 */
export async function releaseProfileHolds(db: Db, accountId: string): Promise<number> {
  return db.transaction(async (tx) => {
    const released = await tx
      .update(printFiles)
      .set({ status: "pending", holdCode: null, holdReasons: [], renderedAt: null, batchId: keptBatch })
      .where(and(eq(printFiles.accountId, accountId), eq(printFiles.status, "held"), eq(printFiles.holdCode, "lab_profile_missing")))
      .returning({ batchId: printFiles.batchId });
    const batchIds = [...new Set(released.flatMap((r) => (r.batchId ? [r.batchId] : [])))];
    if (batchIds.length) await tx.update(labBatches).set({ status: "rendering", readyAt: null }).where(and(eq(labBatches.accountId, accountId), inArray(labBatches.id, batchIds), inArray(labBatches.status, ["ready", "held"])));
    for (const batchId of batchIds) await startJob(tx, productionBatchRequested.create({ batchId, accountId }));
    return released.length;
  });
}
