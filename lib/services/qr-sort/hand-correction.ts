import { and, desc, eq, ne } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { qrSortFrames, qrSortTasks, subjects } from "@/lib/foundation/db/schema";
import type { QrSortRole } from "@/lib/foundation/db/schema/qr-sort";

type Filed = { role: QrSortRole | null; studentId: string | null };

/**
 * Where a frame goes when the photographer files it by hand: under the subject
 * (a card frame stays a card, anything else becomes a subject frame) or under
 * nobody (a card keeps its own student id). It leaves review and is marked manual.
 */
export function handFiled(frame: Filed, subject: { id: string; studentId: string } | null) {
  const role = subject && frame.role !== "card" ? "subject" : frame.role;
  return { subjectId: subject?.id ?? null, studentId: subject ? subject.studentId : frame.role === "card" ? frame.studentId : null, role, review: [] as string[], manual: true };
}

/**
 * The latest hand correction of each photo in the job's earlier
 * sorts (newest sort first), so that sorting again keeps them, as matching
 * keeps its reviewers' decisions. A correction to a subject deleted since
 * (its subject_id set null while it still named a student) is dropped: the rules decide.
 */
export async function earlierCorrections(db: Db, task: { id: string; accountId: string; jobId: number }) {
  const kept = new Map<number, { id: string; studentId: string } | null>();
  const rows = await db
    .select({ fileId: qrSortFrames.fileId, role: qrSortFrames.role, studentId: qrSortFrames.studentId, subjectId: subjects.id, subjectStudentId: subjects.studentId })
    .from(qrSortFrames)
    .innerJoin(qrSortTasks, eq(qrSortTasks.id, qrSortFrames.taskId))
    .leftJoin(subjects, eq(subjects.id, qrSortFrames.subjectId))
    .where(
      and(
        eq(qrSortTasks.jobId, task.jobId),
        eq(qrSortTasks.accountId, task.accountId),
        eq(qrSortTasks.status, "completed"),
        ne(qrSortTasks.id, task.id),
        eq(qrSortFrames.manual, true),
      ),
    )
    .orderBy(desc(qrSortTasks.createdAt), desc(qrSortTasks.id));
  const seen = new Set<number>();
  for (const r of rows) {
    if (r.fileId === null || seen.has(r.fileId)) continue;
    seen.add(r.fileId);
    const subjectGone = r.subjectId === null && r.studentId !== null && r.role !== "card";
    if (!subjectGone) kept.set(r.fileId, r.subjectId ? { id: r.subjectId, studentId: r.subjectStudentId! } : null);
  }
  return kept;
}
