import type { DescribedFace } from "@/lib/engines/ml/faces";

/**
 * Eyes closer than this (source pixels) make a face too small to tell children
 * apart: the recognition net reads a 150 px chip with the eyes about 38 px apart,
 * so such a face is enlarged more than 2.4 times and its embedding is mostly
 * guesswork. The calibration's smallest augmented views (~70 px faces, eyes ~28 px
 * apart) still matched; half of that is the gate.
 */
export const MIN_EYE_DISTANCE_PX = 16;

/**
 * Below this chip sharpness (DescribedFace.sharpness) a face is too blurred to tell
 * children apart. Measured on the test photos: sharp faces 95-1,155; the same photos
 * blurred by a Gaussian of 2% of their width 14-18 (one at 56), of 4% 3-11.
 */
export const MIN_SHARPNESS = 30;
/** A face turned further than this (degrees, DescribedFace.yaw) shows one side: frontal test faces measure within ±24°. */
export const MAX_YAW_DEGREES = 35;
/**
 * The detector's own confidence below this: on the test photos, whole faces score
 * 0.94-1.00, a child half behind another person and looking aside 0.31.
 */
export const MIN_FACE_SCORE = 0.6;
/** More of the face's mesh than this outside the photo: half of it is cut off (a tight headshot has 16% outside). */
export const MAX_OUTSIDE_SHARE = 0.25;

export type QualityIssue = "small_face" | "blurred_face" | "turned_away" | "face_hidden";

/**
 * A face the engine must not call `matched` on its own, whatever its score: too small,
 * blurred, turned away, or half hidden (the detector unsure of it, or a large part of
 * it outside the photo). It goes to review with the reason. (A face box that merely
 * touches the photo's edge is not a gate: tight headshots touch it with the whole
 * face visible, e.g. the demo set's event-5.jpg.) The first issue found is reported,
 * in this order.
 */
export function qualityIssueOf(face: Pick<DescribedFace, "landmarks" | "score" | "yaw" | "outsideShare" | "sharpness">): QualityIssue | null {
  const { leftEye, rightEye } = face.landmarks;
  if (Math.hypot(rightEye.x - leftEye.x, rightEye.y - leftEye.y) < MIN_EYE_DISTANCE_PX) return "small_face";
  if (face.score < MIN_FACE_SCORE || face.outsideShare > MAX_OUTSIDE_SHARE) return "face_hidden";
  if (Math.abs(face.yaw) > MAX_YAW_DEGREES) return "turned_away";
  if (face.sharpness < MIN_SHARPNESS) return "blurred_face";
  return null;
}
