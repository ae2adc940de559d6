import { chamfer34, components, luminance } from "./matte-ops";

/**
 * A person behind, out of focus (issue 38, rule.defocusFill): the sure fill's large pieces that are much blurrier than the
 * kept person stay out.
 *
 * A portrait taken with a shallow depth of field leaves the people behind the subject soft, and ISNet, which separates by
 * focus as much as by shape, leaves them out, as a photographer means it to. The 256 px person model sees them as people,
 * touching the subject at a shoulder, so the sure fill painted them in (unseen4 v103: a blurred woman behind a sharp one,
 * ISNet alone 0.966, the rule 0.681). A body ISNet missed in the subject's own plane (a dark jacket, a second subject)
 * is as sharp as the subject: its few edges (folds, seams, its outline) are steep. Sharpness here is how steep an edge is
 * for its contrast: the pixel's central difference against the luminance range of its 5 × 5 window, which is 0.5 across
 * a sharp step and about 1 / (σ √2π) across one blurred by σ pixels; a region's is the 90th percentile of that over its
 * pixels with a contrast of at least EDGE_CONTRAST. A flat region (a plain dark jacket) has too few such pixels to
 * judge and is filled as before.
 */
const EDGE_CONTRAST = 16;
/** A region with fewer pixels of contrast than this is not judged (no evidence of blur). */
const MIN_EDGE_PIXELS = 40;
const PERCENTILE = 0.9;
/** Piece pixels this close (working pixels) to the kept person are left out of its measure: the subject's own sharp outline. */
const AWAY = 3;

/** Edge steepness (0..0.5) of pixel i, or -1 where its 5 × 5 window has too little contrast (or reaches the frame's edge). */
function steepness(lum: Uint8Array, w: number, h: number, i: number): number {
  const x = i % w, y = (i - x) / w;
  if (x < 2 || y < 2 || x >= w - 2 || y >= h - 2) return -1;
  let lo = 255, hi = 0;
  for (let dy = -2; dy <= 2; dy++) {
    const row = i + dy * w;
    for (let dx = -2; dx <= 2; dx++) {
      const v = lum[row + dx]!;
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  }
  const range = hi - lo;
  if (range < EDGE_CONTRAST) return -1;
  const g = Math.max(Math.abs(lum[i + 1]! - lum[i - 1]!), Math.abs(lum[i + w]! - lum[i - w]!)) / 2;
  return g / range;
}

/** The region's sharpness (the PERCENTILE of its pixels' steepness), or null with too few pixels of contrast. */
function sharpnessOf(lum: Uint8Array, w: number, h: number, pixels: number[]): number | null {
  const values: number[] = [];
  for (const i of pixels) {
    const s = steepness(lum, w, h, i);
    if (s >= 0) values.push(s);
  }
  if (values.length < MIN_EDGE_PIXELS) return null;
  values.sort((a, b) => a - b);
  return values[Math.floor(PERCENTILE * (values.length - 1))]!;
}

/**
 * Clears from `filled` (the sure fill's pieces, working size) each 8-connected piece of at least `minArea` of the frame
 * whose sharpness is under `ratio` times the kept person's (`kept`: ISNet's kept person before the fill): rule.defocusFill
 * and rule.defocusMinArea (the rule's type is not imported: person-matte.ts imports this file). Returns how many pieces it cleared.
 */
export function dropDefocused(filled: Uint8Array, kept: (i: number) => boolean, rgb: Uint8Array, w: number, h: number, { ratio, minArea }: { ratio: number; minArea: number }): number {
  const n = w * h;
  const pieces = components(w, h, (i) => filled[i] === 1, true);
  const large = pieces.sizes.map((s, l) => l > 0 && s >= minArea * n);
  if (!large.some(Boolean)) return 0;
  const lum = Uint8Array.from({ length: n }, (_, i) => luminance(rgb, i * 3));
  const far = 1e9;
  const nearKept = new Float32Array(n).fill(far);
  const subject: number[] = [];
  for (let i = 0; i < n; i++) {
    if (kept(i)) {
      nearKept[i] = 0;
      subject.push(i);
    }
  }
  const reference = sharpnessOf(lum, w, h, subject);
  if (reference === null) return 0;
  chamfer34(nearKept, w, h, far);
  const byPiece: number[][] = pieces.sizes.map(() => []);
  for (let i = 0; i < n; i++) {
    const l = pieces.labels[i]!;
    if (large[l] && nearKept[i]! > AWAY) byPiece[l]!.push(i);
  }
  const blurred = pieces.sizes.map((_, l) => {
    if (!large[l]) return false;
    const s = sharpnessOf(lum, w, h, byPiece[l]!);
    return s !== null && s < ratio * reference;
  });
  for (let i = 0; i < n; i++) if (blurred[pieces.labels[i]!]) filled[i] = 0;
  return blurred.filter(Boolean).length;
}
