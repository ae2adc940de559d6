import sharp from "sharp";
import { singleChannel } from "./single-channel";
import { EDGE_SOFTNESS } from "./types";

/** Feather width at edgeSoftness 10, as a fraction of the photo's long side (0.8 %: about 32 px at 4000 px). */
const MAX_FEATHER = 0.008;

/** Gaussian sigma, in full-size pixels, for an edgeSoftness of 0..10 (grows faster at the top of the scale). */
export function featherSigma(softness: number, width: number, height: number): number {
  return MAX_FEATHER * Math.max(width, height) * Math.pow(Math.min(EDGE_SOFTNESS.max, Math.max(EDGE_SOFTNESS.min, softness)) / EDGE_SOFTNESS.max, 1.5);
}

/**
 * edgeSoftness at full resolution. 0: a hard cut at 50 % (alpha only 0 or 255).
 * 1..10: the matte is blurred with a Gaussian whose width scales with the photo,
 * so the same setting looks the same on a 1 MP and a 12 MP photo.
 */
export async function finishEdges(alpha: Uint8Array, width: number, height: number, softness: number): Promise<Uint8Array> {
  if (softness <= 0) {
    for (let i = 0; i < alpha.length; i++) alpha[i] = alpha[i]! >= 128 ? 255 : 0;
    return alpha;
  }
  const sigma = featherSigma(softness, width, height);
  if (sigma < 0.3) return alpha; // below libvips' smallest blur: invisible anyway
  return singleChannel(sharp(alpha, { raw: { width, height, channels: 1 } }).blur(sigma), width * height);
}
