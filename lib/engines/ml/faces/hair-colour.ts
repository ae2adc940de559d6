import type { UprightImage } from "./decode-upright";
import type { Point } from "./types";

/**
 * Does the photo's top row look like the head's own hair (issue 37)? For light (grey, white, blond)
 * or wispy hair the selfie model does not take for a person, the finer matte reads a cut head as
 * whole (person-crown.ts, `headCutAtTop`). The hair's colour is sampled just under the photo's top
 * edge in the middle of the head's column, the ground beside the head at the top (outside the matte),
 * each as a Gaussian in CIE Lab (mean and variance per channel; the ground's on each side apart); every
 * column of the top rows within the head's column reads hair where hair is likelier than either ground. A whole head touches the edge at its
 * apex; a cut one shows its hair across a chord that widens with the cut, whatever the matte says.
 * All in detection pixels, on a matte whose square holds the photo's top edge (y = 0).
 */
export const HAIR_COLOUR = {
  /** Whether headCutAtTop asks (off: the finer matte's level and chord alone). */
  on: false,
  /** Cut where hair and ground are at least `separation` apart and the hair spans at least `width` D of the top row. */
  separation: 1,
  width: 0.7,
  /** Asked only where the finer matte's edge level is below this (person-crown.ts `hairCutsTop`). */
  belowLevel: 0.3,
  /** The hair's sample: rows `hairFrom`-`hairTo` D below the edge, within `hairHalf` D of the eyes. */
  hairFrom: 0.04,
  hairTo: 0.2,
  hairHalf: 0.25,
  /** ... where the matte is at least this (the person). */
  hairMatte: 0.5,
  /** A top-row pixel reads hair where it is likelier under the hair's Gaussian than under either ground's, and within `within` standard deviations of the hair (root mean square over L, a, b): the ground beside the head need not be the ground above it (obama.jpg: red curtains beside, a window above). */
  within: 2.5,
  /** The ground's sample: rows 0-`groundDown` D, `groundFrom`-`groundTo` D either side of the eyes, matte below `groundMatte`. */
  groundDown: 0.2,
  groundFrom: 0.9,
  groundTo: 1.5,
  groundMatte: 0.3,
  /** A side with fewer ground pixels than this share of its sampled area is not used; neither side: no answer. */
  groundShare: 0.25,
  /** The top rows read: `topRows` rows, columns within `topHalf` D of the eyes. */
  topRows: 2,
  topHalf: 0.7,
} as const;

export type HairAtTop = {
  /** How far apart hair and ground are: the distance of their means in Lab over the root of their summed variances (the three channels together), the nearer side's. */
  separation: number;
  /** The widest run of top-row columns read as hair (gaps of a pixel or two bridged), in D. */
  width: number;
  /** Lab distance of the hair's mean to the nearer side's ground. */
  distance: number;
};

type Gauss = { mean: [number, number, number]; variance: [number, number, number]; n: number };

/** sRGB 0-255 to CIE Lab (D65). */
export function toLab(r: number, g: number, b: number): [number, number, number] {
  const lin = (c: number) => {
    const v = c / 255;
    return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  const R = lin(r), G = lin(g), B = lin(b);
  const f = (t: number) => (t > 216 / 24389 ? Math.cbrt(t) : (24389 / 27 * t + 16) / 116);
  const fx = f((0.4124 * R + 0.3576 * G + 0.1805 * B) / 0.95047);
  const fy = f(0.2126 * R + 0.7152 * G + 0.0722 * B);
  const fz = f((0.0193 * R + 0.1192 * G + 0.9505 * B) / 1.08883);
  return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
}

function labAt(img: Pick<UprightImage, "rgb" | "rgbWidth">, x: number, y: number): [number, number, number] {
  const q = (y * img.rgbWidth + x) * 3;
  return toLab(img.rgb[q]!, img.rgb[q + 1]!, img.rgb[q + 2]!);
}

function gauss(samples: [number, number, number][]): Gauss | null {
  const n = samples.length;
  if (n < 4) return null;
  const mean: [number, number, number] = [0, 0, 0];
  for (const s of samples) for (let c = 0; c < 3; c++) mean[c]! += s[c]! / n;
  const variance: [number, number, number] = [0, 0, 0];
  // A floor of 4 (2 Lab units of spread): flat areas would otherwise claim every pixel but their own.
  for (const s of samples) for (let c = 0; c < 3; c++) variance[c]! += (s[c]! - mean[c]!) ** 2 / n;
  return { mean, variance: variance.map((v) => Math.max(v, 4)) as [number, number, number], n };
}

/** The mean over L, a, b of the squared distance from the mean in standard deviations. */
function meanSquareZ(g: Gauss, p: [number, number, number]): number {
  let s = 0;
  for (let c = 0; c < 3; c++) s += (p[c]! - g.mean[c]!) ** 2 / g.variance[c]!;
  return s / 3;
}

function logLikelihood(g: Gauss, p: [number, number, number]): number {
  let s = 0;
  for (let c = 0; c < 3; c++) s -= (p[c]! - g.mean[c]!) ** 2 / (2 * g.variance[c]!) + 0.5 * Math.log(g.variance[c]!);
  return s;
}

/** The hair's colour at the photo's top edge (HAIR_COLOUR); null where the ground beside the head cannot be sampled. */
/** `m`: the eyes and D of the finer matte; `personAt`: that matte's value at a point (person-crown.ts `matteAt`). */
export function hairAtTop(img: Pick<UprightImage, "rgb" | "rgbWidth" | "rgbHeight">, m: { eye: Point; D: number }, personAt: (p: Point) => number): HairAtTop | null {
  const { eye, D } = m;
  const R = HAIR_COLOUR;
  const xs = (from: number, to: number) => {
    const out: number[] = [];
    for (let x = Math.max(0, Math.ceil(eye.x + from * D)); x <= Math.min(img.rgbWidth - 1, Math.floor(eye.x + to * D)); x++) out.push(x);
    return out;
  };
  const hair: [number, number, number][] = [];
  // Where the matte takes it for the person: with room above the head the rows under the edge are partly ground.
  for (let y = Math.round(R.hairFrom * D); y <= Math.round(R.hairTo * D) && y < img.rgbHeight; y++) {
    for (const x of xs(-R.hairHalf, R.hairHalf)) if (personAt({ x: x + 0.5, y: y + 0.5 }) >= R.hairMatte) hair.push(labAt(img, x, y));
  }
  // The ground on each side of the head apart (a window on one side, a wall on the other is two grounds).
  const sides: Gauss[] = [];
  for (const [from, to] of [[-R.groundTo, -R.groundFrom], [R.groundFrom, R.groundTo]] as const) {
    const ground: [number, number, number][] = [];
    let area = 0;
    for (let y = 0; y <= Math.round(R.groundDown * D) && y < img.rgbHeight; y++) {
      for (const x of xs(from, to)) {
        area++;
        if (personAt({ x: x + 0.5, y: y + 0.5 }) < R.groundMatte) ground.push(labAt(img, x, y));
      }
    }
    const g = area > 0 && ground.length >= R.groundShare * area ? gauss(ground) : null;
    if (g) sides.push(g);
  }
  const h = gauss(hair);
  if (!h || !sides.length) return null;
  const apart = (g: Gauss) => Math.hypot(h.mean[0] - g.mean[0], h.mean[1] - g.mean[1], h.mean[2] - g.mean[2]);
  const distance = Math.min(...sides.map(apart));
  const separation = Math.min(...sides.map((g) => apart(g) / Math.sqrt(h.variance.reduce((a, b) => a + b, 0) + g.variance.reduce((a, b) => a + b, 0))));
  // The top rows, column by column (the mean of `topRows` rows), read as hair or ground.
  const cols = xs(-R.topHalf, R.topHalf);
  const isHair = cols.map((x) => {
    const p: [number, number, number] = [0, 0, 0];
    for (let y = 0; y < R.topRows; y++) {
      const l = labAt(img, x, y);
      for (let c = 0; c < 3; c++) p[c]! += l[c]! / R.topRows;
    }
    return meanSquareZ(h, p) <= R.within ** 2 && sides.every((g) => logLikelihood(h, p) > logLikelihood(g, p));
  });
  // The widest run of hair, gaps of up to 2 columns bridged.
  let best = 0, run = 0, gap = 0;
  for (const hit of isHair) {
    if (hit) {
      run += 1 + gap;
      gap = 0;
      best = Math.max(best, run);
    } else if (run > 0 && ++gap > 2) {
      run = 0;
      gap = 0;
    }
  }
  return { separation, width: best / D, distance };
}
