import { and, eq } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { matchFaces, matchFiles, subjects } from "@/lib/foundation/db/schema";
import { badRequest, notFound } from "@/lib/foundation/http/api-error";
import { bestDecision } from "./match-photo";
import { countDecisions, requireMatchJob } from "./match-job-status";
import { facesOf, toPublicFace } from "./match-results";
import type { ReviewInput } from "./schemas";
import { learnFromReview, type LearnOutcome } from "./confirmed-reference";
import { logger } from "@/lib/foundation/log/logger";

type FaceRow = typeof matchFaces.$inferSelect;

/** What a review makes of a face: its decision and the subject it belongs to. */
async function reviewed(db: Db, face: FaceRow, agencyId: number, input: ReviewInput): Promise<Partial<FaceRow>> {
  const at = new Date();
  switch (input.action) {
    case "accept":
      if (!face.finalSubjectId) throw badRequest("NO_CANDIDATE", "This face has no proposed subject to accept: assign one with action assign and subject_id.", { field: "action" });
      return { review: "accepted", decision: "matched", reviewedAt: at };
    case "assign": {
      const [subject] = await db.select({ id: subjects.id }).from(subjects).where(and(eq(subjects.id, input.subject_id), eq(subjects.agencyId, agencyId), eq(subjects.accountId, face.accountId)));
      if (!subject) throw notFound("Subject");
      return { review: "assigned", decision: "matched", finalSubjectId: subject.id, reviewedAt: at };
    }
    case "nobody":
      return { review: "nobody", decision: "unmatched", finalSubjectId: null, reviewedAt: at };
    case "not_this_person": {
      // Never files the face under the next candidate: it is offered for confirmation (accept), or the face is left unmatched.
      const next = nextCandidate(face);
      return next ? { review: "rejected", decision: "needs_review", finalSubjectId: next, reviewedAt: at } : { review: "rejected", decision: "unmatched", finalSubjectId: null, reviewedAt: at };
    }
    case "reset":
      return unreviewed(face);
  }
}

/** A face as the engine left it, before anyone reviewed it (undo). */
export function unreviewed(face: Pick<FaceRow, "engineDecision" | "subjectId">): Partial<FaceRow> {
  return { review: null, reviewedAt: null, decision: face.engineDecision, finalSubjectId: face.engineDecision === "unmatched" ? null : face.subjectId };
}

/** A photo's decision is its best face's: kept in step after a review. */
export async function refreshFileDecision(db: Db, matchFileId: number) {
  const siblings = await db.select({ decision: matchFaces.decision }).from(matchFaces).where(eq(matchFaces.matchFileId, matchFileId));
  await db.update(matchFiles).set({ decision: bestDecision(siblings.map((s) => s.decision)) }).where(eq(matchFiles.id, matchFileId));
}

/**
 * The engine's candidates in order (best, runner-up) after the one shown now (the
 * proposal, else the engine's best below the threshold): a rejection walks down the
 * list once and never comes back to a child already turned down.
 */
export function nextCandidate(face: Pick<FaceRow, "subjectId" | "runnerUpSubjectId" | "finalSubjectId">): string | null {
  const list = [face.subjectId, face.runnerUpSubjectId].filter((id): id is string => id != null);
  const shown = face.finalSubjectId ?? face.subjectId;
  const i = shown ? list.indexOf(shown) : -1;
  return (i === -1 ? list.find((id) => id !== shown) : list[i + 1]) ?? null;
}

/**
 * PATCH /v1/services/studio/matching/jobs/{id}/faces/{faceId}: the photographer
 * accepts the proposal, assigns another subject, says it is nobody on the
 * roster, says "not this person" (the next candidate is proposed, awaiting an
 * accept, or the face is left unmatched), or undoes (reset). Saved at once; the photo's decision and the job's
 * counts follow; later match jobs over the same photo keep it. A confirmed face
 * becomes a reference of its subject when the agency learns from confirmed matches.
 */
export async function reviewFace(db: Db, accountId: string, matchJobId: number, faceId: string, input: ReviewInput) {
  const job = await requireMatchJob(db, accountId, matchJobId);
  const answer = await db.transaction(async (tx) => {
    const [face] = await tx.select().from(matchFaces).where(and(eq(matchFaces.id, faceId), eq(matchFaces.matchJobId, job.id), eq(matchFaces.accountId, accountId))).for("update");
    if (!face) throw notFound("Face");
    await tx.update(matchFaces).set(await reviewed(tx, face, job.agencyId, input)).where(eq(matchFaces.id, face.id));
    await refreshFileDecision(tx, face.matchFileId);
    const [row] = await facesOf(tx, [face.matchFileId]).then((rows) => rows.filter((r) => r.face.id === face.id));
    return { face: toPublicFace(row!), counts: await countDecisions(tx, job.id) };
  });
  // After the commit (it runs the face engine): the confirmed face may become a reference of its subject.
  let learned: LearnOutcome = "not_confirmed";
  try {
    learned = await learnFromReview(db, accountId, faceId);
  } catch (err) {
    // The review is saved whatever happens here; the reference can be learned by the next review of this face.
    logger().warn({ err, faceId }, "confirmed match not learned as a reference");
  }
  return { ...answer, reference_learned: learned === "added" || learned === "kept" };
}
