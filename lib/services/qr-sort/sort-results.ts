import { and, asc, count, eq, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { jobFiles, qrSortFrames, qrSortTasks, subjects } from "@/lib/foundation/db/schema";
import { ApiError, conflict, notFound } from "@/lib/foundation/http/api-error";
import { pageWindow } from "@/lib/foundation/http/pagination";
import { OUTPUT_URL_TTL_SECONDS, storage } from "@/lib/domain/storage";
import type { SortResultsQuery } from "./schemas";
import { handFiled } from "./hand-correction";

export async function requireFinishedSort(db: Db, accountId: string, taskId: string) {
  const [task] = await db.select().from(qrSortTasks).where(and(eq(qrSortTasks.id, taskId), eq(qrSortTasks.accountId, accountId)));
  if (!task) throw notFound("QR sort");
  if (task.status !== "completed") {
    throw conflict("SORT_NOT_FINISHED", task.status === "failed" ? `QR sort ${taskId} failed: ${task.errorMessage ?? "run it again"}.` : `QR sort ${taskId} is ${task.status}: poll GET /v1/services/studio/jobs/${taskId} until it is completed.`);
  }
  return task;
}

const frameColumns = { frame: qrSortFrames, name: subjects.name, thumbnailKey: jobFiles.thumbnailKey };
type FrameRow = { frame: typeof qrSortFrames.$inferSelect; name: string | null; thumbnailKey: string | null };

/** Frames with their subject's name and the file's thumbnail, as the results list and a correction answer them. */
const selectFrames = (db: Db) =>
  db
    .select(frameColumns)
    .from(qrSortFrames)
    .leftJoin(subjects, eq(subjects.id, qrSortFrames.subjectId))
    .leftJoin(jobFiles, eq(jobFiles.id, qrSortFrames.fileId));

async function toPublicFrame(r: FrameRow) {
  const f = r.frame;
  return {
    file_id: f.fileId,
    filename: f.filename,
    sequence: f.sequence ?? 0,
    captured_at: f.capturedAt?.toISOString() ?? null,
    subject_id: f.subjectId,
    student_id: f.studentId,
    name: r.name,
    role: f.role ?? "before_first_card",
    card_payload: f.cardPayload,
    review: f.review,
    manual: f.manual,
    thumbnail_url: r.thumbnailKey ? await storage().signedUrl(r.thumbnailKey, OUTPUT_URL_TTL_SECONDS) : null,
  };
}

/**
 * GET /v1/services/studio/qr-sort/{taskId}/results: every frame in capture
 * order, filterable by role, by subject, or to what needs review.
 */
export async function listSortResults(db: Db, accountId: string, taskId: string, query: SortResultsQuery) {
  await requireFinishedSort(db, accountId, taskId);
  const filters: SQL[] = [eq(qrSortFrames.taskId, taskId), eq(qrSortFrames.accountId, accountId)];
  if (query.role) filters.push(eq(qrSortFrames.role, query.role));
  if (query.subject_id) filters.push(eq(qrSortFrames.subjectId, query.subject_id));
  if (query.needs_review === "true") filters.push(sql`jsonb_array_length(${qrSortFrames.review}) > 0`);
  if (query.needs_review === "false") filters.push(sql`jsonb_array_length(${qrSortFrames.review}) = 0`);
  const where = and(...filters);
  const page = pageWindow(query);
  const [rows, [total]] = await Promise.all([
    selectFrames(db)
      .where(where)
      .orderBy(asc(qrSortFrames.sequence), asc(qrSortFrames.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(qrSortFrames).where(where),
  ]);
  return { items: await Promise.all(rows.map(toPublicFrame)), total: total?.n ?? 0 };
}

/**
 * PATCH /v1/services/studio/qr-sort/{taskId}/results/{fileId}: the
 * photographer files a frame under another subject of the agency, or under
 * nobody (null). Free. The frame is marked manual and leaves review; a frame
 * filed under a subject becomes a subject frame (a card frame stays a card).
 */
export async function reassignFrame(db: Db, accountId: string, taskId: string, fileId: number, subjectId: string | null) {
  const task = await requireFinishedSort(db, accountId, taskId);
  const [frame] = await db.select().from(qrSortFrames).where(and(eq(qrSortFrames.taskId, taskId), eq(qrSortFrames.fileId, fileId), eq(qrSortFrames.accountId, accountId)));
  if (!frame) throw notFound("Photo in this QR sort");
  let subject: { id: string; studentId: string } | undefined;
  if (subjectId !== null) {
    [subject] = await db
      .select({ id: subjects.id, studentId: subjects.studentId })
      .from(subjects)
      .where(and(eq(subjects.id, subjectId), eq(subjects.agencyId, task.agencyId), eq(subjects.accountId, accountId)));
    if (!subject) throw new ApiError(400, "SUBJECT_NOT_FOUND", `${subjectId} is not a subject of this job's agency.`, { field: "subject_id" });
  }
  await db
    .update(qrSortFrames)
    .set(handFiled(frame, subject ?? null))
    .where(eq(qrSortFrames.id, frame.id));
  const [row] = await selectFrames(db).where(eq(qrSortFrames.id, frame.id));
  return toPublicFrame(row!);
}
