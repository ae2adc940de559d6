import { resizeBilinear, type Matte } from "./matte-ops";

/** Mean over a (2r+1)² window, clipped at the borders (running sums: O(n) whatever r). */
export function boxMean(src: Float32Array, w: number, h: number, r: number): Float32Array {
  const tmp = new Float32Array(w * h);
  const out = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    const row = y * w;
    let sum = 0;
    for (let x = 0; x <= Math.min(r, w - 1); x++) sum += src[row + x]!;
    for (let x = 0; x < w; x++) {
      const lo = x - r;
      const hi = x + r;
      tmp[row + x] = sum / (Math.min(hi, w - 1) - Math.max(lo, 0) + 1);
      if (hi + 1 < w) sum += src[row + hi + 1]!;
      if (lo >= 0) sum -= src[row + lo]!;
    }
  }
  for (let x = 0; x < w; x++) {
    let sum = 0;
    for (let y = 0; y <= Math.min(r, h - 1); y++) sum += tmp[y * w + x]!;
    for (let y = 0; y < h; y++) {
      const lo = y - r;
      const hi = y + r;
      out[y * w + x] = sum / (Math.min(hi, h - 1) - Math.max(lo, 0) + 1);
      if (hi + 1 < h) sum += tmp[(hi + 1) * w + x]!;
      if (lo >= 0) sum -= tmp[lo * w + x]!;
    }
  }
  return out;
}

/**
 * Edge-aware upsampling of a matte to the photo's full size: the fast guided
 * filter (He & Sun 2015) with the photo's luminance as the guide. Per window the
 * matte is modelled as a * luminance + b; a and b are fitted at the matte's
 * resolution, interpolated to full size, and applied to the full-size luminance.
 * Where the matte is flat, a = 0 and nothing changes; across an edge, the result
 * follows the photo's own full-resolution edge instead of an interpolated blur,
 * which is what brings back hair strands and crisp product outlines.
 *
 * guideLow: luminance 0..1 at the matte's size. grayFull: 8-bit luminance at full size.
 */
export function guidedUpsample(
  matte: Matte,
  guideLow: Float32Array,
  grayFull: Uint8Array,
  fullWidth: number,
  fullHeight: number,
  { radius, eps }: { radius: number; eps: number },
): Uint8Array {
  const { width: w, height: h, data: p } = matte;
  const n = w * h;
  const ip = new Float32Array(n);
  const ii = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    ip[i] = guideLow[i]! * p[i]!;
    ii[i] = guideLow[i]! * guideLow[i]!;
  }
  const meanI = boxMean(guideLow, w, h, radius);
  const meanP = boxMean(p, w, h, radius);
  const corrIP = boxMean(ip, w, h, radius);
  const corrII = boxMean(ii, w, h, radius);
  const a = ip; // reuse buffers
  const b = ii;
  for (let i = 0; i < n; i++) {
    const varI = corrII[i]! - meanI[i]! * meanI[i]!;
    const covIP = corrIP[i]! - meanI[i]! * meanP[i]!;
    a[i] = covIP / (varI + eps);
    b[i] = meanP[i]! - a[i]! * meanI[i]!;
  }
  const aFull = resizeBilinear(boxMean(a, w, h, radius), w, h, fullWidth, fullHeight);
  const bFull = resizeBilinear(boxMean(b, w, h, radius), w, h, fullWidth, fullHeight);
  const out = new Uint8Array(fullWidth * fullHeight);
  for (let i = 0; i < out.length; i++) {
    const q = aFull[i]! * (grayFull[i]! / 255) + bFull[i]!;
    out[i] = q <= 0 ? 0 : q >= 1 ? 255 : Math.round(q * 255);
  }
  return out;
}
