import { and, asc, desc, eq, inArray, isNotNull } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { jobFiles, matchFaces, matchFiles, matchJobs, qrSortFrames, qrSortTasks } from "@/lib/foundation/db/schema";

export type SortedPhoto = { subjectId: string; fileId: number; position: number; source: "qr_sort" | "face_match" };

/** Positions of face-matched photos start after any sort's frames, in the match job's order. */
const FACE_MATCH_OFFSET = 1_000_000;

/**
 * Which photos of a job belong to which child: the frames its newest finished
 * QR sort filed under a subject (by the cards, or by the photographer's hand),
 * and the faces face matching matched to a subject (by the engine, or confirmed
 * or assigned in review) in the job's match jobs. Card frames are not a child's photos.
 * `sorted` is false when the job has neither a finished sort nor a finished match job.
 */
export async function sortedPhotosOf(db: Db, accountId: string, jobId: number): Promise<{ sorted: boolean; photos: SortedPhoto[] }> {
  const [sort] = await db
    .select({ id: qrSortTasks.id })
    .from(qrSortTasks)
    .where(and(eq(qrSortTasks.accountId, accountId), eq(qrSortTasks.jobId, jobId), eq(qrSortTasks.status, "completed")))
    .orderBy(desc(qrSortTasks.createdAt), desc(qrSortTasks.id))
    .limit(1);
  const photos: SortedPhoto[] = [];
  if (sort) {
    const frames = await db
      .select({ subjectId: qrSortFrames.subjectId, fileId: qrSortFrames.fileId, sequence: qrSortFrames.sequence })
      .from(qrSortFrames)
      .where(and(eq(qrSortFrames.taskId, sort.id), eq(qrSortFrames.role, "subject"), isNotNull(qrSortFrames.subjectId), isNotNull(qrSortFrames.fileId)))
      .orderBy(asc(qrSortFrames.sequence), asc(qrSortFrames.id));
    for (const f of frames) photos.push({ subjectId: f.subjectId!, fileId: f.fileId!, position: f.sequence ?? 0, source: "qr_sort" });
  }
  const matchJobIds = (
    await db
      .select({ id: matchJobs.id })
      .from(matchJobs)
      .where(and(eq(matchJobs.accountId, accountId), eq(matchJobs.jobId, jobId), eq(matchJobs.status, "completed")))
  ).map((m) => m.id);
  if (matchJobIds.length > 0) {
    const faces = await db
      .select({ subjectId: matchFaces.finalSubjectId, fileId: matchFiles.fileId, position: matchFiles.position })
      .from(matchFaces)
      .innerJoin(matchFiles, eq(matchFiles.id, matchFaces.matchFileId))
      // The file must still be this job's (a match job can be given another job's photos by URL).
      .innerJoin(jobFiles, and(eq(jobFiles.id, matchFiles.fileId), eq(jobFiles.jobId, jobId)))
      .where(and(inArray(matchFaces.matchJobId, matchJobIds), eq(matchFaces.decision, "matched"), isNotNull(matchFaces.finalSubjectId)))
      .orderBy(asc(matchFiles.matchJobId), asc(matchFiles.position));
    for (const f of faces) photos.push({ subjectId: f.subjectId!, fileId: f.fileId!, position: FACE_MATCH_OFFSET + f.position, source: "face_match" });
  }
  // A photo reached twice (a sorted frame the faces also matched) counts once, first as sorted.
  const seen = new Set<string>();
  const unique = photos.filter((p) => {
    const key = `${p.subjectId}:${p.fileId}`;
    return !seen.has(key) && !!seen.add(key);
  });
  return { sorted: !!sort || matchJobIds.length > 0, photos: unique };
}
