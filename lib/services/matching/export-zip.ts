import { and, asc, eq, isNotNull } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { jobFiles, matchFaces, matchFiles, subjects } from "@/lib/foundation/db/schema";
import { conflict } from "@/lib/foundation/http/api-error";
import { storage } from "@/lib/domain/storage";
import { labFileName } from "@/lib/services/agencies/export-names";
import { asLabJpeg } from "@/lib/services/agencies/lab-jpeg";
import { zipStream } from "@/lib/services/agencies/zip-stream";
import { matchJobCsv } from "./export-csv";
import { requireMatchJob } from "./match-job-status";

/**
 * Each child's photos of a match job, in job order: one entry per (photo, child) whose
 * face is `matched` (by the engine or a reviewer), so a group photo is in every matched
 * child's set. Faces waiting for review or matched to nobody are left out, and so are
 * photos deleted since (no original to send).
 */
async function childPhotos(db: Db, matchJobId: number) {
  const rows = await db
    .select({ fileId: matchFiles.id, storageKey: jobFiles.storageKey, contentType: jobFiles.contentType, subjectId: subjects.id, studentId: subjects.studentId, name: subjects.name })
    .from(matchFaces)
    .innerJoin(matchFiles, eq(matchFiles.id, matchFaces.matchFileId))
    .innerJoin(jobFiles, eq(jobFiles.id, matchFiles.fileId))
    .innerJoin(subjects, eq(subjects.id, matchFaces.finalSubjectId))
    .where(and(eq(matchFaces.matchJobId, matchJobId), eq(matchFaces.decision, "matched"), isNotNull(matchFaces.finalSubjectId), eq(matchFiles.status, "completed")))
    .orderBy(asc(matchFiles.position), asc(matchFiles.id), asc(matchFaces.faceIndex));
  const seen = new Set<string>();
  // Counted per file name rather than per subject: two children whose names become the
  // same once made file-safe still get distinct entries.
  const counts = new Map<string, number>();
  return rows.flatMap((r) => {
    const pair = `${r.fileId}:${r.subjectId}`;
    if (seen.has(pair)) return []; // a reviewer put the same child on two faces of one photo
    seen.add(pair);
    const base = labFileName(r.studentId, r.name, 0);
    const n = (counts.get(base) ?? 0) + 1;
    counts.set(base, n);
    return [{ ...r, entry: labFileName(r.studentId, r.name, n) }];
  });
}

/**
 * A match job for the lab: `match-job-{id}.csv` (the job's spreadsheet, as
 * GET .../export answers it) then every matched child's photos named
 * `{student_id}_{last}_{first}_{nn}.jpg`, nn counting that child's photos in job order
 * from 01. Streamed like the QR sort's lab ZIP: one original read from storage at a
 * time, JPEGs stored as uploaded. A job with nothing matched is a ZIP holding only the
 * CSV (which says why); a job still running is a 409, as a lab must not get half a day.
 */
export async function matchJobZip(db: Db, accountId: string, matchJobId: number): Promise<{ filename: string; stream: ReadableStream<Uint8Array>; entries: string[] }> {
  const job = await requireMatchJob(db, accountId, matchJobId);
  if (job.status === "queued" || job.status === "running")
    throw conflict("MATCH_JOB_NOT_FINISHED", `Match job ${job.id} is ${job.status}: poll GET /v1/services/studio/matching/jobs/${job.id} until it has ended.`);
  const { filename: csvName, csv } = await matchJobCsv(db, accountId, job.id);
  const photos = await childPhotos(db, job.id);
  let at = -1;
  const stream = zipStream(async (add) => {
    if (at === -1) {
      add(csvName, new TextEncoder().encode(csv));
      at = 0;
      return true;
    }
    const photo = photos[at++];
    if (!photo) return false;
    const stored = await storage().get(photo.storageKey);
    if (stored) add(photo.entry, await asLabJpeg(stored.body, photo.contentType)); // deleted meanwhile: left out
    return true;
  });
  return { filename: `match-job-${job.id}.zip`, stream, entries: [csvName, ...photos.map((p) => p.entry)] };
}
