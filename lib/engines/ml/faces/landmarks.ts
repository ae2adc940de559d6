import type { Box, DetectedFace, Point } from "./types";

/** MediaPipe face mesh indices (468 points). */
const MESH = {
  /** Eye corners: image-left eye 33 (outer) / 133 (inner); image-right eye 362 (inner) / 263 (outer). */
  leftEye: [33, 133],
  rightEye: [362, 263],
  chin: 152,
  noseTip: 1,
  /** The face's outline at cheek height, image-left and image-right. */
  cheeks: [234, 454],
} as const;

/**
 * The crown is not in the mesh (it stops at the hairline). Anthropometric
 * drawing rule: the eyes sit about halfway between chin and the top of the skull,
 * so crown = eye line + (eye line - chin) along the face's axis. Hair volume
 * is not counted, as in ICAO's "chin to crown".
 */
export const CROWN_FROM_EYES = 1.0;

/**
 * Each eye's six points of iBUG's 68 scheme on the mesh (corners, two above, two below: image-left
 * eye 33, 160, 158, 133, 153, 144 for 37-42; image-right 362, 385, 387, 263, 373, 380 for 43-48).
 * The 68 scheme's eye centre is their mean; the corners' mid-point (`leftEye` above) lies 0.02 eye
 * distances from it on human markup (scripts/evaluate-jaw-passes.ts).
 */
const EYE_CONTOURS = [
  [33, 160, 158, 133, 153, 144],
  [362, 385, 387, 263, 373, 380],
] as const;

/** The two eyes' centres as the 68 scheme defines them (the mean of each eye's six contour points), in source pixels. */
export function meshEyeContours(mesh: [number, number, number?][], scale: number): [Point, Point] {
  const centre = (ids: readonly number[]) => ({ x: (ids.reduce((s, i) => s + mesh[i]![0], 0) / ids.length) * scale, y: (ids.reduce((s, i) => s + mesh[i]![1], 0) / ids.length) * scale });
  return [centre(EYE_CONTOURS[0]), centre(EYE_CONTOURS[1])];
}

const mid = (a: Point, b: Point): Point => ({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });

/** Turns a mesh (in detection pixels) into landmarks, box and roll in source pixels. */
export function faceFromMesh(mesh: [number, number, number?][], score: number, scale: number, size: { width: number; height: number }): DetectedFace | null {
  if (mesh.length < 468) return null;
  const p = (i: number): Point => ({ x: mesh[i]![0] * scale, y: mesh[i]![1] * scale });
  const leftEye = mid(p(MESH.leftEye[0]), p(MESH.leftEye[1]));
  const rightEye = mid(p(MESH.rightEye[0]), p(MESH.rightEye[1]));
  const eyeMid = mid(leftEye, rightEye);
  const chin = p(MESH.chin);
  const crown = { x: eyeMid.x + (eyeMid.x - chin.x) * CROWN_FROM_EYES, y: eyeMid.y + (eyeMid.y - chin.y) * CROWN_FROM_EYES };
  const roll = (Math.atan2(rightEye.y - leftEye.y, rightEye.x - leftEye.x) * 180) / Math.PI;

  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const [mx, my] of mesh) {
    x0 = Math.min(x0, mx * scale);
    y0 = Math.min(y0, my * scale);
    x1 = Math.max(x1, mx * scale);
    y1 = Math.max(y1, my * scale);
  }
  const touchesEdge = x0 <= 1 || y0 <= 1 || x1 >= size.width - 1 || y1 >= size.height - 1;
  const box = clampBox({ x: x0, y: y0, w: x1 - x0, h: y1 - y0 }, size);
  const headHeight = Math.hypot(crown.x - chin.x, crown.y - chin.y);
  const outside = mesh.filter(([mx, my]) => mx * scale < 0 || my * scale < 0 || mx * scale >= size.width || my * scale >= size.height).length;
  return { box, score, roll, landmarks: { leftEye, rightEye, eyeMid, chin, crown }, headHeight, touchesEdge, yaw: yawOf(p(MESH.noseTip), p(MESH.cheeks[0]), p(MESH.cheeks[1])), outsideShare: round3(outside / mesh.length), contourEyes: meshEyeContours(mesh, scale) };
}

/**
 * A face turned to one side brings the nose tip closer to one cheek's outline in the
 * image: asin((dl − dr) / (dl + dr)) in degrees, 0 facing the camera. On the test and
 * demo photos frontal faces measure within ±24°, a child looking aside 41°.
 */
export function yawOf(nose: Point, leftCheek: Point, rightCheek: Point): number {
  const dl = Math.hypot(nose.x - leftCheek.x, nose.y - leftCheek.y);
  const dr = Math.hypot(nose.x - rightCheek.x, nose.y - rightCheek.y);
  if (dl + dr === 0) return 0;
  return round1((Math.asin(Math.max(-1, Math.min(1, (dl - dr) / (dl + dr)))) * 180) / Math.PI);
}

export function clampBox(b: Box, size: { width: number; height: number }): Box {
  const x = Math.max(0, b.x);
  const y = Math.max(0, b.y);
  const r = Math.min(size.width, b.x + b.w);
  const btm = Math.min(size.height, b.y + b.h);
  return { x: round1(x), y: round1(y), w: round1(Math.max(0, r - x)), h: round1(Math.max(0, btm - y)) };
}

const round1 = (v: number) => Math.round(v * 10) / 10;
const round3 = (v: number) => Math.round(v * 1000) / 1000;

/**
 * Drops what is not worth a crop: low scores, and faces much smaller than the
 * largest in the picture (background people, a face on a poster). The rest is
 * ordered most prominent first (area × score).
 */
export function filterFaces(faces: DetectedFace[], opts: { minScore: number; minSizePx: number; minShareOfLargest: number }): DetectedFace[] {
  const kept = faces.filter((f) => f.score >= opts.minScore && f.headHeight >= opts.minSizePx);
  const largest = Math.max(0, ...kept.map((f) => f.headHeight));
  return kept
    .filter((f) => f.headHeight >= largest * opts.minShareOfLargest)
    .sort((a, b) => b.box.w * b.box.h * b.score - a.box.w * a.box.h * a.score);
}
