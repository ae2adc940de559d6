import type { DescribedFace } from "@/lib/ml/faces";

/**
 * Eyes closer than this (source pixels) make a face too small to tell children
 * apart: the recognition net reads a 150 px chip with the eyes about 38 px apart,
 * so such a face is enlarged more than 2.4 times and its embedding is mostly
 * guesswork. The calibration's smallest augmented views (~70 px faces, eyes ~28 px
 * apart) still matched; half of that is the gate.
 */
export const MIN_EYE_DISTANCE_PX = 16;

export type QualityIssue = "small_face";

/**
 * A face the engine must not call `matched` on its own, whatever its score: too small.
 * It goes to review with the reason. (A face box that touches the photo's edge is not a
 * gate: tight headshots touch it with the whole face visible, e.g. the demo set's
 * event-5.jpg. Blur, turned-away and half-hidden faces need measures the detector does
 * not give yet.)
 */
export function qualityIssueOf(face: Pick<DescribedFace, "landmarks">): QualityIssue | null {
  const { leftEye, rightEye } = face.landmarks;
  if (Math.hypot(rightEye.x - leftEye.x, rightEye.y - leftEye.y) < MIN_EYE_DISTANCE_PX) return "small_face";
  return null;
}
