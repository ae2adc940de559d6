/**
 * Face matching on embeddings (unit-length 128-d vectors from describeFaces):
 * the calibrated similarity, ranking a roster, and the match decision.
 * Calibration: scripts/calibrate-faces.ts; figures in lib/ml/faces/README.md.
 */

/** Stored beside each embedding: a different value means the embedding must be recomputed. */
export const EMBEDDING_MODEL = "face-api-recognition-1.7/dlib-chip-150/v1";

export const DEFAULT_MATCH_THRESHOLD = 0.85;

/**
 * Raw distance (Euclidean between unit vectors, 0 = identical, 2 = opposite) to
 * similarity, piecewise linear between these anchors and clamped to [0, 1].
 *
 * Anchors from `npm run calibrate:faces` (2026-11-23; 35 faces of 26 people plus an
 * augmented view of each, 27 genuine pairs across different photos, 116 augmented
 * genuine pairs, 2,272 impostor pairs; figures in lib/ml/faces/README.md):
 * - 0.95 at 0.25: below every impostor pair (closest 0.275).
 * - 0.85 at 0.30: about 1 impostor pair in 1,000 (3 of 2,272, two of them one
 *   pair of look-alikes that may be the same woman), a third of genuine pairs below.
 * - 0.70 at 0.38: every genuine pair across different photos above (farthest
 *   0.376), 1.4% of all genuine pairs below; 1.8% of impostor pairs above.
 * - 0.50 at 0.45, 0 at 0.80 (impostor median 0.55).
 * Precision first: 0.85 auto-matches only pairs closer than almost any impostor;
 * the band 0.70-0.85 goes to review (REVIEW_BAND), where most genuine pairs
 * the threshold misses land.
 */
export const DISTANCE_TO_SIMILARITY: readonly (readonly [distance: number, similarity: number])[] = [
  [0, 1],
  [0.15, 0.99],
  [0.25, 0.95],
  [0.3, 0.85],
  [0.38, 0.7],
  [0.45, 0.5],
  [0.8, 0],
];

/**
 * needs_review when the best candidate is below the threshold by less than this
 * (at the default: 0.70 to 0.85, raw distance 0.30-0.38, where the genuine pairs
 * the threshold misses lie), and unmatched below that floor.
 */
export const REVIEW_BAND = 0.15;
/**
 * needs_review, even above the threshold, when the runner-up (another subject)
 * is within this of the best: 0.05 is a raw distance of about 0.015 near the
 * threshold, less than the spread of one person's photos.
 */
export const AMBIGUITY_MARGIN = 0.05;

export function normalise(v: ArrayLike<number>): Float32Array {
  let n = 0;
  for (let i = 0; i < v.length; i++) n += v[i]! * v[i]!;
  const k = n > 0 ? 1 / Math.sqrt(n) : 0;
  const out = new Float32Array(v.length);
  for (let i = 0; i < v.length; i++) out[i] = v[i]! * k;
  return out;
}

/** Euclidean distance between the two vectors once each is scaled to unit length (0 to 2). */
export function faceDistance(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) throw new Error(`embeddings of different lengths (${a.length} and ${b.length}): compare embeddings of one model`);
  let dot = 0, na = 0, nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  if (na === 0 || nb === 0) return 2;
  return Math.sqrt(Math.max(0, 2 - (2 * dot) / Math.sqrt(na * nb)));
}

/** The calibrated similarity of a raw distance (see DISTANCE_TO_SIMILARITY). */
export function similarityOfDistance(d: number): number {
  const pts = DISTANCE_TO_SIMILARITY;
  if (d <= pts[0]![0]) return pts[0]![1];
  for (let i = 1; i < pts.length; i++) {
    const [d1, s1] = pts[i]!;
    if (d <= d1) {
      const [d0, s0] = pts[i - 1]!;
      return s0 + ((s1 - s0) * (d - d0)) / (d1 - d0);
    }
  }
  return pts.at(-1)![1];
}

/** Inverse of similarityOfDistance: the largest distance that still scores `s`. */
export function distanceOfSimilarity(s: number): number {
  const pts = DISTANCE_TO_SIMILARITY;
  for (let i = 1; i < pts.length; i++) {
    const [d0, s0] = pts[i - 1]!;
    const [d1, s1] = pts[i]!;
    if (s <= s0 && s >= s1) return s0 === s1 ? d1 : d0 + ((d1 - d0) * (s0 - s)) / (s0 - s1);
  }
  return pts.at(-1)![0];
}

/** Calibrated similarity of two embeddings in [0, 1], on the API's 0.50-0.99 threshold scale. */
export function faceSimilarity(a: ArrayLike<number>, b: ArrayLike<number>): number {
  return similarityOfDistance(faceDistance(a, b));
}

export type Candidate = { subjectId: string; similarity: number };

/**
 * The `k` most similar subjects, best first, one entry per subject (its best
 * reference). A linear scan: about 0.1 ms per face for 2,000 references (see
 * bench/face-match-bench.ts).
 */
export function rankCandidates(embedding: ArrayLike<number>, refs: { subjectId: string; embedding: ArrayLike<number> }[], k = 5): Candidate[] {
  const q = normalise(embedding);
  const dim = q.length;
  const best = new Map<string, number>(); // subject -> smallest distance
  for (const ref of refs) {
    const e = ref.embedding;
    if (e.length !== dim) throw new Error(`reference ${ref.subjectId} has ${e.length} numbers, expected ${dim}: compare embeddings of one model`);
    let dot = 0, n = 0;
    for (let i = 0; i < dim; i++) {
      const x = e[i]!;
      dot += q[i]! * x;
      n += x * x;
    }
    const d = n === 0 ? 2 : Math.sqrt(Math.max(0, 2 - (2 * dot) / Math.sqrt(n)));
    const prev = best.get(ref.subjectId);
    if (prev === undefined || d < prev) best.set(ref.subjectId, d);
  }
  const top: [string, number][] = [];
  for (const entry of best) {
    if (top.length === k && entry[1] >= top[k - 1]![1]) continue;
    let i = top.length;
    while (i > 0 && top[i - 1]![1] > entry[1]) i--;
    top.splice(i, 0, entry);
    if (top.length > k) top.pop();
  }
  return top.map(([subjectId, d]) => ({ subjectId, similarity: similarityOfDistance(d) }));
}

export type MatchDecision = "matched" | "needs_review" | "unmatched";

/**
 * - no candidate, or the best below `threshold - REVIEW_BAND`: unmatched;
 * - the best below `threshold` (within the band): needs_review;
 * - the best at or above `threshold` but another subject within AMBIGUITY_MARGIN
 *   of it (two children too close to call): needs_review;
 * - otherwise matched.
 */
export function decideMatch(best: Candidate | undefined, runnerUp: Candidate | undefined, threshold: number): MatchDecision {
  if (!best) return "unmatched";
  if (best.similarity < threshold - REVIEW_BAND) return "unmatched";
  if (best.similarity < threshold) return "needs_review";
  if (runnerUp && runnerUp.subjectId !== best.subjectId && best.similarity - runnerUp.similarity < AMBIGUITY_MARGIN) return "needs_review";
  return "matched";
}
