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
  const lum = new Uint8Array(n);
  for (let i = 0; i < n; i++) lum[i] = luminance(rgb, i * 3);
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

/**
 * A person behind, out of focus, painted by any of the rule's fills (issue 38, rule.softBehind): the core fill paints a soft
 * child behind a sharp one too (unseen6 v191: ISNet alone 0.841, the rule 0.587), and the 5 × 5 steepness above does not
 * judge it (0.83 of the subject's: a small photo's edges are all a few pixels wide). The blur is estimated instead, by
 * re-blurring (Zhuo & Sim, "Defocus map estimation from a single image", 2011): across an edge blurred by σ, the gradient's
 * magnitude falls by R = √(σ² + s²) / σ when the photo is blurred again by s, so σ = s / √(R² − 1), whatever the edge's
 * contrast. A region's blur is the median of σ over its edge pixels (local maxima of the gradient of at least EDGE_GRADIENT),
 * at least MIN_EDGE_PIXELS of them (fewer: not judged, as a flat jacket above).
 * On the seen sets, the rule's added pieces of at least 1 % of the frame that are a person in the reference have a
 * subject-to-piece ratio of 0.54-1.59; the two soft people behind (v30 0.32, v191 0.44) are under 0.5.
 */
const REBLUR = 1;
/** An edge pixel's gradient (luminance levels a pixel) is at least this: JPEG's blocks and noise stay out. */
const EDGE_GRADIENT = 8;
/** The piece's pixels farther than this from the kept subject are measured (working pixels: not the subject's own outline). */
const AWAY_BLUR = 4;

/** Separable Gaussian blur (σ `sigma`, radius 3σ, edges clamped) of a plane. */
function gaussian(src: Float32Array, w: number, h: number, sigma: number): Float32Array {
  const r = Math.ceil(3 * sigma);
  const k = new Float32Array(2 * r + 1);
  let sum = 0;
  for (let j = 0; j < k.length; j++) sum += k[j] = Math.exp(-((j - r) ** 2) / (2 * sigma * sigma));
  for (let j = 0; j < k.length; j++) k[j] = k[j]! / sum;
  const tmp = new Float32Array(w * h), out = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    const row = y * w;
    for (let x = 0; x < w; x++) {
      let a = 0;
      if (x >= r && x < w - r) for (let j = -r; j <= r; j++) a += k[j + r]! * src[row + x + j]!;
      else for (let j = -r; j <= r; j++) a += k[j + r]! * src[row + Math.min(w - 1, Math.max(0, x + j))]!;
      tmp[row + x] = a;
    }
  }
  for (let y = 0; y < h; y++) {
    const inner = y >= r && y < h - r;
    for (let x = 0; x < w; x++) {
      let a = 0;
      if (inner) for (let j = -r; j <= r; j++) a += k[j + r]! * tmp[(y + j) * w + x]!;
      else for (let j = -r; j <= r; j++) a += k[j + r]! * tmp[Math.min(h - 1, Math.max(0, y + j)) * w + x]!;
      out[y * w + x] = a;
    }
  }
  return out;
}

/** Central-difference gradient magnitude (0 on the frame's outer pixels). */
function gradient(p: Float32Array, w: number, h: number): Float32Array {
  const g = new Float32Array(w * h);
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      const gx = p[i + 1]! - p[i - 1]!, gy = p[i + w]! - p[i - w]!;
      g[i] = Math.sqrt(gx * gx + gy * gy) / 2;
    }
  }
  return g;
}

/** Blur σ (working pixels) at each edge pixel (a local maximum of the gradient, at least EDGE_GRADIENT); -1 elsewhere. */
function edgeBlur(g0: Float32Array, g1: Float32Array, w: number, h: number): Float32Array {
  const sigma = new Float32Array(w * h).fill(-1);
  for (let y = 2; y < h - 2; y++) {
    for (let x = 2; x < w - 2; x++) {
      const i = y * w + x;
      const v = g0[i]!;
      if (v < EDGE_GRADIENT) continue;
      if (g0[i - 1]! > v || g0[i + 1]! > v || g0[i - w]! > v || g0[i + w]! > v || g0[i - w - 1]! > v || g0[i - w + 1]! > v || g0[i + w - 1]! > v || g0[i + w + 1]! > v) continue;
      const r = v / Math.max(1e-6, g1[i]!);
      // An edge that re-blurring does not soften at all is as blurred as this measure can tell (a wide ramp).
      sigma[i] = r <= 1.0001 ? 10 * REBLUR : REBLUR / Math.sqrt(r * r - 1);
    }
  }
  return sigma;
}

/** The median of `values` (a typed array sorts by value, without a comparator), or null with fewer than MIN_EDGE_PIXELS. */
function medianOf(values: number[]): number | null {
  if (values.length < MIN_EDGE_PIXELS) return null;
  return Float32Array.from(values).sort()[Math.floor(values.length / 2)]!;
}

/**
 * The pieces the rule added (`added`: 1 where the cut-out keeps what ISNet left out; 8-connected, at least `minArea` of the
 * frame, and at least `leftOutShare` of each in `leftOut`, ISNet's sure background) that are blurrier than the kept subject
 * (`subject`) by more than 1 / `ratio`: a mask of their pixels (1), or null when there is none.
 */
export function softAdditions(
  added: Uint8Array,
  subject: Uint8Array,
  rgb: Uint8Array,
  w: number,
  h: number,
  { ratio, minArea, leftOut, leftOutShare }: { ratio: number; minArea: number; leftOut: Uint8Array; leftOutShare: number },
): Uint8Array | null {
  const n = w * h;
  const pieces = components(w, h, (i) => added[i] === 1, true);
  const sureOut = new Float64Array(pieces.sizes.length);
  for (let i = 0; i < n; i++) if (leftOut[i]) sureOut[pieces.labels[i]!]! += 1;
  const large = pieces.sizes.map((s, l) => l > 0 && s >= minArea * n && sureOut[l]! >= leftOutShare * s);
  if (!large.some(Boolean)) return null;
  const lum = new Float32Array(n);
  for (let i = 0; i < n; i++) lum[i] = luminance(rgb, i * 3);
  const sigma = edgeBlur(gradient(lum, w, h), gradient(gaussian(lum, w, h, REBLUR), w, h), w, h);
  const far = 1e9;
  const nearSubject = new Float32Array(n).fill(far);
  const own: number[] = [];
  for (let i = 0; i < n; i++) {
    if (!subject[i]) continue;
    nearSubject[i] = 0;
    if (sigma[i]! >= 0) own.push(sigma[i]!);
  }
  const reference = medianOf(own);
  if (reference === null) return null;
  chamfer34(nearSubject, w, h, far);
  const byPiece: number[][] = pieces.sizes.map(() => []);
  for (let i = 0; i < n; i++) {
    const l = pieces.labels[i]!;
    if (large[l] && sigma[i]! >= 0 && nearSubject[i]! > AWAY_BLUR) byPiece[l]!.push(sigma[i]!);
  }
  const soft = pieces.sizes.map((_, l) => {
    if (!large[l]) return false;
    const blur = medianOf(byPiece[l]!);
    return blur !== null && reference < ratio * blur;
  });
  if (!soft.some(Boolean)) return null;
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) if (soft[pieces.labels[i]!]) out[i] = 1;
  return out;
}
