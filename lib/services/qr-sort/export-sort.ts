import { and, asc, eq, isNotNull } from "drizzle-orm";
import { zipStream } from "../agencies/zip-stream";
import Papa from "papaparse";
import type { Db } from "@/lib/foundation/db/types";
import { jobFiles, qrSortFrames, subjects } from "@/lib/foundation/db/schema";
import { storage } from "@/lib/domain/storage";
import { labFileName } from "../agencies/export-names";
import { asLabJpeg } from "../agencies/lab-jpeg";
import { requireFinishedSort } from "./sort-results";

export const SORT_CSV_COLUMNS = ["file_name", "sequence", "captured_at", "subject", "student_id", "role", "decided_by", "review"] as const;

/**
 * A finished sort as a spreadsheet (papaparse), one row per photo in capture
 * order: the subject and student id it is filed under, its role, whether the
 * rules or the photographer decided, and its review reasons. Cells a
 * spreadsheet would run as a formula are escaped.
 */
export async function sortCsv(db: Db, accountId: string, taskId: string): Promise<{ filename: string; csv: string }> {
  const task = await requireFinishedSort(db, accountId, taskId);
  const rows = await db
    .select({ frame: qrSortFrames, name: subjects.name })
    .from(qrSortFrames)
    .leftJoin(subjects, eq(subjects.id, qrSortFrames.subjectId))
    .where(eq(qrSortFrames.taskId, task.id))
    .orderBy(asc(qrSortFrames.sequence), asc(qrSortFrames.id));
  const data = rows.map(({ frame: f, name }) => [
    f.filename,
    f.sequence ?? "",
    f.capturedAt?.toISOString() ?? "",
    name ?? "",
    f.studentId ?? "",
    f.role ?? "",
    f.manual ? "photographer" : "qr_card",
    f.review.join(" "),
  ]);
  return { filename: `qr-sort-job-${task.jobId}.csv`, csv: Papa.unparse({ fields: [...SORT_CSV_COLUMNS], data }, { escapeFormulae: true }) };
}

/** The photos a lab receives: every frame filed under a subject except the card frames, in capture order. */
async function labPhotos(db: Db, taskId: string) {
  const rows = await db
    .select({ storageKey: jobFiles.storageKey, contentType: jobFiles.contentType, subjectId: qrSortFrames.subjectId, studentId: subjects.studentId, name: subjects.name })
    .from(qrSortFrames)
    .innerJoin(subjects, eq(subjects.id, qrSortFrames.subjectId))
    .innerJoin(jobFiles, eq(jobFiles.id, qrSortFrames.fileId))
    .where(and(eq(qrSortFrames.taskId, taskId), eq(qrSortFrames.role, "subject"), isNotNull(qrSortFrames.subjectId)))
    .orderBy(asc(qrSortFrames.sequence), asc(qrSortFrames.id));
  const counts = new Map<string, number>();
  return rows.map((r) => {
    const n = (counts.get(r.subjectId!) ?? 0) + 1;
    counts.set(r.subjectId!, n);
    return { ...r, entry: labFileName(r.studentId, r.name, n) };
  });
}

/**
 * The lab ZIP: every photo filed under a subject, renamed
 * `{student_id}_{last}_{first}_{nn}.jpg` (nn counts the subject's photos in
 * capture order). Streamed: one photo is read from storage at a time and the
 * JPEGs are stored, not deflated again, so memory stays flat for a whole day.
 */
export async function labZip(db: Db, accountId: string, taskId: string): Promise<{ filename: string; stream: ReadableStream<Uint8Array>; entries: string[] }> {
  const task = await requireFinishedSort(db, accountId, taskId);
  const photos = await labPhotos(db, task.id);
  let at = 0;
  const stream = zipStream(async (add) => {
    const photo = photos[at++];
    if (!photo) return false;
    const stored = await storage().get(photo.storageKey);
    if (stored) add(photo.entry, await asLabJpeg(stored.body, photo.contentType)); // deleted meanwhile: left out
    return true;
  });
  return { filename: `lab-job-${task.jobId}.zip`, stream, entries: photos.map((p) => p.entry) };
}
