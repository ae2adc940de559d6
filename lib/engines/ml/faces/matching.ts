/**
 * Face matching on embeddings (unit-length 256-d vectors from describeFaces):
 * the calibrated similarity, ranking a roster, and the match decision.
 * Calibration: scripts/calibrate-faces.ts; figures in lib/engines/ml/faces/README.md.
 */

/** Stored beside each embedding: a different value means the embedding must be recomputed. */
export const EMBEDDING_MODEL = "omz-face-reidentification-retail-0095/onnx-fp16/mesh5-128/v1";

/**
 * The API's threshold scale (contract 4.6): the request schema refuses values outside
 * it and the per-photo rate table (decide-match.ts) is anchored at its two ends.
 */
export const MATCH_THRESHOLD_RANGE = { min: 0.5, max: 0.99 } as const;
export const DEFAULT_MATCH_THRESHOLD = 0.85;

/**
 * The calibrated scale, anchored on raw COSINE similarity of the net's unit vectors
 * (1 = identical, 0 = unrelated), piecewise linear between these anchors and clamped
 * to [0, 1]. From `npm run calibrate:faces` on the Large Age-Gap set (LAG; README,
 * "Calibration"), 2026-11-26: the adult photos' impostor pairs (two different people,
 * same age group, 581,653 pairs; 1,007 genuine pairs), as the scale was anchored before:
 * - 0.99 at 0.85: near-identical photos of one face.
 * - 0.95 at 0.56: beyond 1 in 100,000 adult impostor pairs (0.556).
 * - 0.85 at 0.40: about 1 in 3,000 adult impostor pairs above (0.1% at 0.355, 0.01% at
 *   0.440); 5% of adult genuine pairs below (0.399).
 * - 0.70 at 0.26: 1% of adult impostor pairs above (0.256); 1% of genuine pairs below
 *   (0.288). The band 0.70-0.85 is where the genuine pairs the threshold misses lie: review.
 * - 0.50 at 0.17: 5% of adult impostor pairs above (0.172); 0 at 0 (their median is 0.01).
 * Children's faces lie closer together with every net measured here: the roster-size rule
 * (decide-match.ts) reads their impostor tail, not this per-pair scale.
 */
export const COSINE_TO_SIMILARITY: readonly (readonly [cosine: number, similarity: number])[] = [
  [1, 1],
  [0.85, 0.99],
  [0.56, 0.95],
  [0.4, 0.85],
  [0.26, 0.7],
  [0.17, 0.5],
  [0, 0],
];

/**
 * The same anchors as raw distances (Euclidean between unit vectors, 0 = identical, 2 =
 * opposite: d = sqrt(2 − 2·cosine)), which is what the code below interpolates on.
 */
export const DISTANCE_TO_SIMILARITY: readonly (readonly [distance: number, similarity: number])[] = COSINE_TO_SIMILARITY.map(
  ([c, s]) => [Math.sqrt(Math.max(0, 2 - 2 * c)), s] as const,
);

/**
 * needs_review when the best candidate is below the threshold by less than this
 * (at the default: 0.70 to 0.85, cosine 0.26-0.40, where the genuine pairs the
 * threshold misses lie: 4% of the adult genuine pairs of the calibration set),
 * and unmatched below that floor.
 */
export const REVIEW_BAND = 0.15;
/**
 * needs_review, even above the threshold, when the runner-up (another subject)
 * is within this of the best. The scale is steep where rosters decide (0.95-0.99 spans
 * cosine 0.56-0.85), so 0.02 there is a cosine gap of about 0.15 (0.03 just above the
 * default threshold): two children that close are too close to call. (0.05, the margin
 * of the net before, is a cosine gap of 0.36 at the top: most true matches would go
 * to review behind a classmate's ordinary impostor score.)
 */
export const AMBIGUITY_MARGIN = 0.02;

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
 * reference). A linear scan over the references (see bench/face-match-bench.ts
 * for its cost per face at 400 and 2,000 subjects).
 */
export function rankCandidates(embedding: ArrayLike<number>, refs: { subjectId: string; embedding: ArrayLike<number> }[], k = 5): Candidate[] {
  const q = normalise(embedding);
  const dim = q.length;
  // The best k so far, nearest first; a subject appears once, with its nearest reference.
  const top: { subjectId: string; d: number }[] = [];
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
    if (top.length === k && d >= top[k - 1]!.d) continue;
    const same = top.findIndex((t) => t.subjectId === ref.subjectId);
    if (same >= 0) {
      if (d >= top[same]!.d) continue;
      top.splice(same, 1);
    }
    let i = top.length;
    while (i > 0 && top[i - 1]!.d > d) i--;
    top.splice(i, 0, { subjectId: ref.subjectId, d });
    if (top.length > k) top.pop();
  }
  return top.map((t) => ({ subjectId: t.subjectId, similarity: similarityOfDistance(t.d) }));
}
