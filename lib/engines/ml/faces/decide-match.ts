/**
 * Open-set identification: a photo of someone who is NOT on the roster (a parent,
 * a guest, a child without a portrait) is compared with every subject, and its
 * best impostor score is the maximum of N draws. A threshold fixed per pair lets
 * that maximum pass more often as the roster grows (about N times the per-pair
 * rate). So the API's threshold is read as a false-match rate PER PHOTO, and the
 * similarity a match needs rises with the number of subjects to hold that rate.
 *
 * Figures and method: lib/engines/ml/faces/README.md ("Roster size").
 */
import { probit } from "simple-statistics";
import { AMBIGUITY_MARGIN, MATCH_THRESHOLD_RANGE, REVIEW_BAND, distanceOfSimilarity, similarityOfDistance, type Candidate } from "./matching";

/**
 * What each threshold promises: the share of off-roster faces that may come out
 * `matched` to somebody, whatever the roster size. Interpolated on a log scale
 * between these anchors; the first and last are the ends of MATCH_THRESHOLD_RANGE, which
 * the request schema enforces (a value beyond them gets the end's rate).
 * 0.85, the default: 1 guest face in 200 at most.
 */
export const PHOTO_FALSE_MATCH_RATE: readonly (readonly [threshold: number, rate: number])[] = [
  [MATCH_THRESHOLD_RANGE.min, 0.05],
  [0.7, 0.02],
  [0.85, 0.005],
  [0.95, 0.0005],
  [MATCH_THRESHOLD_RANGE.max, 0.00005],
];

/**
 * Impostor-pair distances (two different people; d = sqrt(2 − 2·cosine) between unit
 * vectors) modelled as a normal distribution fitted to the upper tail measured on
 * CHILDREN's faces: the young photos of the Large Age-Gap set with the Intel 0095 net
 * (582,659 pairs of young photos of different people; README, "Calibration"): 1% of
 * impostor pairs above cosine 0.500 (distance 1.000), 0.1% above 0.615 (0.877), 0.01%
 * above 0.696 (0.780), 0.001% above 0.752 (0.704). Mean 1.355 and sd 0.155 put every one
 * of those points at or beyond the measured one (0.994, 0.876, 0.779, 0.694), so limits
 * taken from it err strict. Children's faces lie much closer together than adults' (the
 * same set's adult photos: 0.256 / 0.355 / 0.440 / 0.556), so a school roster needs the
 * children's model. Deeper than 1 in 100,000 it is extrapolation.
 */
export const IMPOSTOR_DISTANCES = { mean: 1.355, sd: 0.155 } as const;

/** The per-photo false-match rate a threshold stands for (see PHOTO_FALSE_MATCH_RATE). */
export function photoFalseMatchRate(threshold: number): number {
  const pts = PHOTO_FALSE_MATCH_RATE;
  if (threshold <= pts[0]![0]) return pts[0]![1];
  for (let i = 1; i < pts.length; i++) {
    const [t1, r1] = pts[i]!;
    if (threshold <= t1) {
      const [t0, r0] = pts[i - 1]!;
      const k = (threshold - t0) / (t1 - t0);
      return 10 ** (Math.log10(r0) + k * (Math.log10(r1) - Math.log10(r0)));
    }
  }
  return pts.at(-1)![1];
}

/** The distance below which this share of impostor pairs falls (the model above). */
export function impostorDistanceAtRate(rate: number): number {
  return IMPOSTOR_DISTANCES.mean + IMPOSTOR_DISTANCES.sd * probit(rate);
}

/**
 * The similarity a face's best subject must reach to be `matched` against a roster
 * of `rosterSize` subjects: the higher of the threshold itself (its calibrated
 * per-pair meaning, which is what small rosters get) and the score at which the
 * best of `rosterSize` impostors passes with at most the threshold's per-photo rate
 * (1 − (1 − p)^N ≤ rate, so p = 1 − (1 − rate)^(1/N)).
 */
export function rosterThreshold(threshold: number, rosterSize: number): number {
  const n = Math.max(1, Math.floor(rosterSize));
  const pairRate = -Math.expm1(Math.log1p(-photoFalseMatchRate(threshold)) / n);
  const distance = Math.min(distanceOfSimilarity(threshold), impostorDistanceAtRate(pairRate));
  // Rounded to 4 places so the stored figure and the decision agree exactly.
  return Math.max(threshold, Math.round(similarityOfDistance(distance) * 1e4) / 1e4);
}

export type MatchDecision = "matched" | "needs_review" | "unmatched";
export type ReviewReason = "below_threshold" | "large_roster" | "two_candidates_close";

/**
 * With `required = rosterThreshold(threshold, rosterSize)`:
 * - no candidate, or the best below `threshold - REVIEW_BAND`: unmatched;
 * - the best below the threshold (within the band): needs_review, below_threshold;
 * - at or above the threshold but below `required` (not enough for a roster this
 *   size): needs_review, large_roster;
 * - at or above `required` but another subject within AMBIGUITY_MARGIN of it (two
 *   children too close to call): needs_review, two_candidates_close;
 * - otherwise matched.
 * `reason` says why a face goes to review, and is null otherwise.
 */
export function judgeMatch(best: Candidate | undefined, runnerUp: Candidate | undefined, threshold: number, rosterSize: number): { decision: MatchDecision; reason: ReviewReason | null } {
  if (!best || best.similarity < threshold - REVIEW_BAND) return { decision: "unmatched", reason: null };
  if (best.similarity < threshold) return { decision: "needs_review", reason: "below_threshold" };
  if (best.similarity < rosterThreshold(threshold, rosterSize)) return { decision: "needs_review", reason: "large_roster" };
  if (runnerUp && runnerUp.subjectId !== best.subjectId && best.similarity - runnerUp.similarity < AMBIGUITY_MARGIN) return { decision: "needs_review", reason: "two_candidates_close" };
  return { decision: "matched", reason: null };
}

/** The decision alone (see judgeMatch). */
export function decideMatch(best: Candidate | undefined, runnerUp: Candidate | undefined, threshold: number, rosterSize: number): MatchDecision {
  return judgeMatch(best, runnerUp, threshold, rosterSize).decision;
}
