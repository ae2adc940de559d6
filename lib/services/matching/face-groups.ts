import { and, eq, inArray, isNotNull, isNull, ne } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { jobFiles, matchFaces, matchFiles, subjects } from "@/lib/foundation/db/schema";
import { badRequest, notFound } from "@/lib/foundation/http/api-error";
import { pageWindow, type PageQuery } from "@/lib/foundation/http/pagination";
import { OUTPUT_URL_TTL_SECONDS, storage } from "@/lib/domain/storage";
import { countDecisions, requireMatchJob } from "./match-job-status";
import { refreshFileDecision, unreviewed } from "./review-face";
import type { GroupReviewInput } from "./schemas";

type FaceRow = typeof matchFaces.$inferSelect;
type SubjectRef = { subject_id: string; student_id: string | null; name: string | null };

/** What one group decision files: faces nobody reviewed that the engine did not file by itself. */
const isOpen = (f: Pick<FaceRow, "review" | "decision">) => f.review == null && f.decision !== "matched";
const openFaces = and(isNull(matchFaces.review), ne(matchFaces.decision, "matched"));

/** The child to offer a group to first: whom its filed faces belong to, else the engine's most frequent candidate. */
function suggest(faces: FaceRow[], names: Map<string, SubjectRef>) {
  const top = (ids: (string | null)[]) => {
    const counts = new Map<string, number>();
    for (const id of ids) if (id) counts.set(id, (counts.get(id) ?? 0) + 1);
    return [...counts].sort((a, b) => b[1] - a[1])[0];
  };
  const filed = top(faces.filter((f) => f.decision === "matched").map((f) => f.finalSubjectId));
  if (filed && names.has(filed[0])) return { ...names.get(filed[0])!, reason: "filed" as const, faces: filed[1] };
  // Only review-band faces' candidates: an unmatched face's best candidate is nobody's likeness.
  const candidate = top(faces.filter((f) => isOpen(f) && f.decision === "needs_review").map((f) => f.subjectId));
  if (candidate && names.has(candidate[0])) return { ...names.get(candidate[0])!, reason: "candidate" as const, faces: candidate[1] };
  return null;
}

/**
 * GET /v1/services/studio/matching/jobs/{id}/groups: the job's faces that look like
 * one person, in groups of two or more that still hold a face to review, most
 * faces to review first. Each face is shown on its photo's thumbnail (the box is
 * in the photo's pixels, `width` × `height`).
 */
export async function listFaceGroups(db: Db, accountId: string, matchJobId: number, q: PageQuery) {
  const job = await requireMatchJob(db, accountId, matchJobId);
  const rows = await db
    .select({ face: matchFaces, fileId: matchFiles.fileId, filename: matchFiles.filename, width: matchFiles.width, height: matchFiles.height, thumbnailKey: jobFiles.thumbnailKey })
    .from(matchFaces)
    .innerJoin(matchFiles, eq(matchFiles.id, matchFaces.matchFileId))
    .leftJoin(jobFiles, eq(jobFiles.id, matchFiles.fileId))
    .where(and(eq(matchFaces.matchJobId, job.id), isNotNull(matchFaces.faceGroup)));
  const byGroup = new Map<string, typeof rows>();
  for (const r of rows) {
    const members = byGroup.get(r.face.faceGroup!);
    if (members) members.push(r);
    else byGroup.set(r.face.faceGroup!, [r]);
  }
  const groups = [...byGroup]
    .map(([group, members]) => ({ group, members: members.sort((a, b) => a.face.matchFileId - b.face.matchFileId || a.face.faceIndex - b.face.faceIndex), open: members.filter((m) => isOpen(m.face)).length }))
    .filter((g) => g.members.length >= 2 && g.open > 0)
    // Ties in the job's photo order (a group's first face).
    .sort((a, b) => b.open - a.open || b.members.length - a.members.length || a.members[0]!.face.matchFileId - b.members[0]!.face.matchFileId);
  const { offset } = pageWindow(q);
  const page = groups.slice(offset, offset + q.limit);
  const subjectIds = [...new Set(page.flatMap((g) => g.members.flatMap((m) => [m.face.finalSubjectId, m.face.subjectId])).filter((id): id is string => id != null))];
  const names = new Map<string, SubjectRef>(
    subjectIds.length
      ? (await db.select({ id: subjects.id, studentId: subjects.studentId, name: subjects.name }).from(subjects).where(and(inArray(subjects.id, subjectIds), eq(subjects.accountId, accountId)))).map((s) => [
          s.id,
          { subject_id: s.id, student_id: s.studentId, name: s.name },
        ])
      : [],
  );
  const items = await Promise.all(
    page.map(async (g) => ({
      group: g.group,
      open_faces: g.open,
      suggestion: suggest(
        g.members.map((m) => m.face),
        names,
      ),
      faces: await Promise.all(
        g.members.map(async (m) => ({
          id: m.face.id,
          file_id: m.fileId,
          filename: m.filename,
          width: m.width,
          height: m.height,
          thumbnail_url: m.thumbnailKey ? await storage().signedUrl(m.thumbnailKey, OUTPUT_URL_TTL_SECONDS) : null,
          face_box: m.face.faceBox,
          decision: m.face.decision,
          review: m.face.review,
          open: isOpen(m.face),
          subject: m.face.decision === "matched" && m.face.finalSubjectId ? (names.get(m.face.finalSubjectId) ?? null) : null,
        })),
      ),
    })),
  );
  return { items, total: groups.length };
}

/**
 * PATCH /v1/services/studio/matching/jobs/{id}/groups/{group}: one decision for
 * every open face of the group (assign to a child, or nobody on the roster); the
 * faces a reviewer already decided, and those the engine filed, keep their
 * decision. `reset` with the face ids a decision answered undoes it. Group
 * decisions do not learn references (each would run the face engine again);
 * a face reviewed on its own still does.
 */
export async function reviewFaceGroup(db: Db, accountId: string, matchJobId: number, group: string, input: GroupReviewInput) {
  const job = await requireMatchJob(db, accountId, matchJobId);
  return db.transaction(async (tx) => {
    const inGroup = and(eq(matchFaces.matchJobId, job.id), eq(matchFaces.accountId, accountId), eq(matchFaces.faceGroup, group));
    const [any] = await tx.select({ id: matchFaces.id }).from(matchFaces).where(inGroup).limit(1);
    if (!any) throw notFound("Face group");
    let changed: FaceRow[];
    if (input.action === "reset") {
      changed = await tx.select().from(matchFaces).where(and(inGroup, inArray(matchFaces.id, input.face_ids))).for("update");
      const missing = input.face_ids.filter((id) => !changed.some((f) => f.id === id));
      if (missing.length) throw badRequest("NOT_IN_GROUP", `Face ${missing[0]} is not in group ${group} of this match job.`, { field: "face_ids" });
      for (const f of changed) await tx.update(matchFaces).set(unreviewed(f)).where(eq(matchFaces.id, f.id));
    } else {
      let decided: Partial<FaceRow>;
      if (input.action === "assign") {
        const [subject] = await tx.select({ id: subjects.id }).from(subjects).where(and(eq(subjects.id, input.subject_id), eq(subjects.agencyId, job.agencyId), eq(subjects.accountId, accountId)));
        if (!subject) throw notFound("Subject");
        decided = { review: "assigned", decision: "matched", finalSubjectId: subject.id, reviewedAt: new Date() };
      } else {
        decided = { review: "nobody", decision: "unmatched", finalSubjectId: null, reviewedAt: new Date() };
      }
      changed = await tx.select().from(matchFaces).where(and(inGroup, openFaces)).for("update");
      if (changed.length) await tx.update(matchFaces).set(decided).where(inArray(matchFaces.id, changed.map((f) => f.id)));
    }
    for (const fileId of new Set(changed.map((f) => f.matchFileId))) await refreshFileDecision(tx, fileId);
    return { group, face_ids: changed.map((f) => f.id), counts: await countDecisions(tx, job.id) };
  });
}
