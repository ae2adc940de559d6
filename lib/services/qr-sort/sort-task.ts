import { and, asc, count, desc, eq, inArray, ne, sql } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { agencies, jobFiles, qrSortFrames, qrSortTasks, subjects } from "@/lib/foundation/db/schema";
import { DEFAULT_MATCH_THRESHOLD, describeFaces, isFaceInputError } from "@/lib/engines/ml/faces";
import { loadReferences } from "@/lib/services/matching/process-match-file";
import { matchPhoto, type Reference } from "@/lib/services/matching/match-photo";
import { cardReaderThreads, isFrameUnreadableError, readCards } from "@/lib/engines/imaging/card-reader/read-cards";
import { storage } from "@/lib/domain/storage";
import { emitWebhookEvent } from "@/lib/domain/webhooks/emit";
import { requireJob } from "@/lib/services/agencies/agency-jobs";
import { assignRuns } from "./assign-runs";
import { earlierCorrections, handFiled } from "./hand-correction";
import { GENERIC_FAILURE } from "./job-errors";

type TaskRow = typeof qrSortTasks.$inferSelect;

/** The task as its job works on it, with its frames (ids, in acceptance order), or null when it is not this account's. */
export async function loadSort(db: Db, taskId: string, accountId: string) {
  const [task] = await db.select().from(qrSortTasks).where(and(eq(qrSortTasks.id, taskId), eq(qrSortTasks.accountId, accountId)));
  if (!task) return null;
  const frames = await db.select({ id: qrSortFrames.id }).from(qrSortFrames).where(eq(qrSortFrames.taskId, taskId)).orderBy(asc(qrSortFrames.id));
  return { id: task.id, status: task.status, frameIds: frames.map((f) => f.id) };
}

/**
 * One step of the job: reads the cards and capture times of these frames (those
 * not read yet: a retried step skips what it finished) and records progress.
 */
export async function readFrames(db: Db, taskId: string, frameIds: number[], signal?: AbortSignal) {
  await db.update(qrSortTasks).set({ status: "running" }).where(and(eq(qrSortTasks.id, taskId), eq(qrSortTasks.status, "queued")));
  const rows = frameIds.length
    ? await db
        .select({ id: qrSortFrames.id, status: qrSortFrames.status, storageKey: jobFiles.storageKey })
        .from(qrSortFrames)
        .leftJoin(jobFiles, eq(jobFiles.id, qrSortFrames.fileId))
        .where(and(inArray(qrSortFrames.id, frameIds), eq(qrSortFrames.taskId, taskId)))
        .orderBy(asc(qrSortFrames.id))
    : [];
  const pending = rows.filter((r) => r.status === "pending");
  const refs = pending.length ? await faceReferencesFor(db, taskId) : [];
  // As many frames at once as the reader has threads; each frame's row is written as soon as it is read.
  let next = 0;
  const lane = async () => {
    for (let row = pending[next++]; row; row = pending[next++]) {
      signal?.throwIfAborted();
      await readOne(db, row, refs);
    }
  };
  await Promise.all(Array.from({ length: Math.min(cardReaderThreads(), pending.length) }, lane));
  const [done] = await db.select({ n: count() }).from(qrSortFrames).where(and(eq(qrSortFrames.taskId, taskId), ne(qrSortFrames.status, "pending")));
  await db.update(qrSortTasks).set({ processed: done?.n ?? 0 }).where(eq(qrSortTasks.id, taskId));
}

/** The agency's face references when face matching is on for it (its consent switch), else none. */
async function faceReferencesFor(db: Db, taskId: string): Promise<Reference[]> {
  const [row] = await db
    .select({ agencyId: qrSortTasks.agencyId, enabled: agencies.faceMatchingEnabled })
    .from(qrSortTasks)
    .innerJoin(agencies, eq(agencies.id, qrSortTasks.agencyId))
    .where(eq(qrSortTasks.id, taskId));
  return row?.enabled ? loadReferences(db, row.agencyId) : [];
}

/** The subject the frame's most prominent face is matched to with confidence (face matching's own decision), or null. */
async function clearFaceMatch(bytes: Buffer, refs: Reference[]): Promise<string | null> {
  if (refs.length === 0) return null;
  try {
    const described = await describeFaces(bytes, { maxFaces: 3 });
    const [first] = matchPhoto(described.faces, refs, DEFAULT_MATCH_THRESHOLD);
    return first?.decision === "matched" ? first.subjectId : null;
  } catch (err) {
    if (isFaceInputError(err)) return null; // a photo the face engine cannot use says nothing either way
    throw err;
  }
}

async function readOne(db: Db, row: { id: number; storageKey: string | null }, refs: Reference[]) {
  const stored = row.storageKey ? await storage().get(row.storageKey) : null;
  if (!stored) {
    // The photo was deleted from the job meanwhile: nothing to read, it is filed by the rules as unreadable.
    await db.update(qrSortFrames).set({ status: "failed" }).where(eq(qrSortFrames.id, row.id));
    return;
  }
  try {
    const reading = await readCards(stored.body);
    // Card frames are filed by their card; only the others are worth a face check.
    const faceSubjectId = reading.codes.length === 0 ? await clearFaceMatch(stored.body, refs) : null;
    await db
      .update(qrSortFrames)
      .set({ status: "read", codes: reading.codes, capturedAt: reading.capturedAt ? new Date(reading.capturedAt) : null, faceSubjectId })
      .where(eq(qrSortFrames.id, row.id));
  } catch (err) {
    if (!isFrameUnreadableError(err)) throw err;
    await db.update(qrSortFrames).set({ status: "failed" }).where(eq(qrSortFrames.id, row.id));
  }
}

/**
 * Ends the task. Completed: the rules file every frame (capture order, runs,
 * review reasons) against the agency's roster as it is now, in one transaction
 * with the status. Failed: the message is kept and no frame is filed.
 */
export async function finishSort(db: Db, taskId: string, outcome: "completed" | "failed", message?: string) {
  const [task] = await db.select().from(qrSortTasks).where(eq(qrSortTasks.id, taskId));
  if (!task || task.status === "completed" || task.status === "failed") return task ?? null;
  if (outcome === "failed") {
    return db.transaction(async (tx) => {
      // Only the finisher that moves it out of queued/running tells the webhooks.
      const [ended] = await tx
        .update(qrSortTasks)
        .set({ status: "failed", errorMessage: message ?? GENERIC_FAILURE, completedAt: new Date() })
        .where(and(eq(qrSortTasks.id, taskId), inArray(qrSortTasks.status, ["queued", "running"])))
        .returning();
      if (!ended) return task;
      await emitWebhookEvent(tx, { accountId: ended.accountId, type: "qr_sort.failed", data: (sp) => toPublicSort(sp, ended) });
      return ended;
    });
  }
  return db.transaction(async (tx) => {
    // Locked and read again: of two finishers at once, the second finds it completed and neither files nor notifies twice.
    const [locked] = await tx.select().from(qrSortTasks).where(eq(qrSortTasks.id, taskId)).for("update");
    if (!locked || locked.status === "completed" || locked.status === "failed") return locked ?? task;
    const frames = await tx.select().from(qrSortFrames).where(eq(qrSortFrames.taskId, taskId)).orderBy(asc(qrSortFrames.id));
    const roster = await tx.select({ subjectId: subjects.id, studentId: subjects.studentId, name: subjects.name }).from(subjects).where(eq(subjects.agencyId, task.agencyId));
    const { outcomes, warnings } = assignRuns(
      frames.map((f) => ({ fileId: f.fileId, filename: f.filename, capturedAt: f.capturedAt, codes: f.codes, unreadable: f.status !== "read", faceSubjectId: f.faceSubjectId })),
      roster,
    );
    // What the photographer filed by hand in an earlier sort of this job wins over the rules, photo by photo.
    const corrections = await earlierCorrections(tx, locked);
    for (const [i, f] of frames.entries()) {
      const o = outcomes[i]!;
      const ruled = { sequence: o.sequence, role: o.role, subjectId: o.subjectId, studentId: o.studentId, cardPayload: o.cardPayload, review: o.review };
      const byHand = f.fileId !== null && corrections.has(f.fileId) ? handFiled(o, corrections.get(f.fileId)!) : null;
      await tx
        .update(qrSortFrames)
        .set(byHand ? { ...ruled, ...byHand } : ruled)
        .where(eq(qrSortFrames.id, f.id));
    }
    const [ended] = await tx
      .update(qrSortTasks)
      .set({ status: "completed", processed: task.filesTotal, warnings, completedAt: new Date() })
      .where(eq(qrSortTasks.id, taskId))
      .returning();
    await emitWebhookEvent(tx, { accountId: ended!.accountId, type: "qr_sort.completed", data: (sp) => toPublicSort(sp, ended!) });
    return ended!;
  });
}

/** Counts of a finished sort, for the task's summary. */
async function summaryOf(db: Db, taskId: string) {
  const [s] = await db
    .select({
      cards: sql<number>`count(*) filter (where ${qrSortFrames.role} = 'card')::int`,
      subjects: sql<number>`count(distinct ${qrSortFrames.subjectId}) filter (where ${qrSortFrames.role} in ('card', 'subject'))::int`,
      subjectFrames: sql<number>`count(*) filter (where ${qrSortFrames.role} = 'subject')::int`,
      before: sql<number>`count(*) filter (where ${qrSortFrames.role} = 'before_first_card')::int`,
      unknown: sql<number>`count(*) filter (where ${qrSortFrames.role} = 'unknown_card')::int`,
      review: sql<number>`count(*) filter (where jsonb_array_length(${qrSortFrames.review}) > 0)::int`,
      manual: sql<number>`count(*) filter (where ${qrSortFrames.manual})::int`,
    })
    .from(qrSortFrames)
    .where(eq(qrSortFrames.taskId, taskId));
  return {
    cards: Number(s?.cards ?? 0),
    subjects_photographed: Number(s?.subjects ?? 0),
    subject_frames: Number(s?.subjectFrames ?? 0),
    before_first_card: Number(s?.before ?? 0),
    unknown_card: Number(s?.unknown ?? 0),
    needs_review: Number(s?.review ?? 0),
    corrected_by_hand: Number(s?.manual ?? 0),
  };
}

/** The task as GET /v1/services/studio/jobs/{taskId} shows it (type qr_sort). */
export async function toPublicSort(db: Db, t: TaskRow) {
  return {
    task_id: t.id,
    type: "qr_sort" as const,
    agency_id: t.agencyId,
    job_id: t.jobId,
    status: t.status,
    total_files: t.filesTotal,
    // As a Face Crop task shows it: frames read so far.
    progress: { current: t.processed, total: t.filesTotal, percentage: t.filesTotal ? Math.round((t.processed / t.filesTotal) * 100) : 100 },
    summary: t.status === "completed" ? await summaryOf(db, t.id) : null,
    warnings: t.warnings,
    error: t.errorMessage,
    created_at: t.createdAt.toISOString(),
    completed_at: t.completedAt?.toISOString() ?? null,
  };
}

export async function getSortTask(db: Db, accountId: string, taskId: string) {
  const [t] = await db.select().from(qrSortTasks).where(and(eq(qrSortTasks.id, taskId), eq(qrSortTasks.accountId, accountId)));
  return t ? toPublicSort(db, t) : null;
}

/**
 * GET .../agencies/{agencyId}/jobs/{jobId}/qr-sort: the job's sorts, newest
 * first, so the job page finds the one running or the last one finished.
 */
export async function listJobSorts(db: Db, accountId: string, agencyId: number, jobId: number, page: { limit: number; offset: number }) {
  await requireJob(db, accountId, agencyId, jobId);
  const where = and(eq(qrSortTasks.jobId, jobId), eq(qrSortTasks.accountId, accountId));
  const [rows, [total]] = await Promise.all([
    db.select().from(qrSortTasks).where(where).orderBy(desc(qrSortTasks.createdAt), desc(qrSortTasks.id)).limit(page.limit).offset(page.offset),
    db.select({ n: count() }).from(qrSortTasks).where(where),
  ]);
  return { items: await Promise.all(rows.map((t) => toPublicSort(db, t))), total: total?.n ?? 0 };
}
