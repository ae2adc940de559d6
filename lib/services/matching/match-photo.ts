import { judgeMatch, rankCandidates, type Candidate, type DescribedFace, type MatchDecision } from "@/lib/engines/ml/faces";
import type { FaceReviewReason } from "./limits";
import { qualityIssueOf } from "./quality-gates";

export type Reference = { subjectId: string; embedding: ArrayLike<number> };
export type FaceProposal = {
  face: DescribedFace;
  best: Candidate | undefined;
  runnerUp: Candidate | undefined;
  decision: MatchDecision;
  /** The subject proposed (matched or to review); null when unmatched. */
  subjectId: string | null;
  /** Why a face is sent to review (null otherwise): shown to the reviewer. */
  reviewReason: FaceReviewReason | null;
};

const RANK: Record<MatchDecision, number> = { matched: 2, needs_review: 1, unmatched: 0 };
export const bestDecision = (decisions: MatchDecision[]): MatchDecision =>
  decisions.reduce<MatchDecision>((a, d) => (RANK[d] > RANK[a] ? d : a), "unmatched");

/**
 * Each face of one photo against the agency's references. One child cannot be
 * two faces of the same photo: when two faces are matched to one subject, the
 * weaker is sent to review rather than sold to that child's family twice.
 */
export function matchPhoto(faces: DescribedFace[], refs: Reference[], threshold: number): FaceProposal[] {
  // The open-set rule holds its per-photo false-match rate over N impostor draws. A guest
  // is compared with every reference, and a subject's score is the best of its references:
  // with several portraits per subject that best is drawn from more than one impostor
  // score, so N counts references (an upper bound: one child's portraits are correlated).
  // See lib/engines/ml/faces/README.md, "Several references per subject".
  const rosterSize = refs.length;
  const proposals = faces.map((face): FaceProposal => {
    const [best, runnerUp] = rankCandidates(face.embedding, refs, 2);
    const engine = judgeMatch(best, runnerUp, threshold, rosterSize);
    // Quality gate: a face too small to be sure of is never matched on its own.
    const issue = engine.decision === "unmatched" ? null : qualityIssueOf(face);
    const decision: MatchDecision = issue ? "needs_review" : engine.decision;
    const reviewReason = issue ?? engine.reason;
    return { face, best, runnerUp, decision, reviewReason, subjectId: decision === "unmatched" ? null : (best?.subjectId ?? null) };
  });
  const strongest = new Map<string, FaceProposal>();
  for (const p of proposals) {
    if (p.decision !== "matched" || !p.subjectId) continue;
    const held = strongest.get(p.subjectId);
    if (!held) strongest.set(p.subjectId, p);
    else if (p.best!.similarity > held.best!.similarity) {
      held.decision = "needs_review";
      held.reviewReason = "same_child_twice";
      strongest.set(p.subjectId, p);
    } else {
      p.decision = "needs_review";
      p.reviewReason = "same_child_twice";
    }
  }
  return proposals;
}

/** Intersection over union of two boxes: the same face found again by a re-run overlaps its earlier box. */
export function iou(a: { x: number; y: number; w: number; h: number }, b: { x: number; y: number; w: number; h: number }) {
  const x = Math.max(0, Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x));
  const y = Math.max(0, Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y));
  const inter = x * y;
  const union = a.w * a.h + b.w * b.h - inter;
  return union > 0 ? inter / union : 0;
}
