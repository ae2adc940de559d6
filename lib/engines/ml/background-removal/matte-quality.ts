import sharp from "sharp";

/**
 * How close a cut-out's alpha is to a reference matte, as the quality benchmark
 * and tests report it: IoU of the two masks cut at 50 %, and the mean absolute
 * alpha difference (0..1) over all pixels.
 */
export type MatteScore = { iou: number; alphaError: number };

/** The alpha channel of an image (a cut-out PNG, or a grey matte), resized to width × height. */
export async function alphaPlane(image: Buffer | string, width: number, height: number, fromGrey = false): Promise<Uint8Array> {
  let p = sharp(image).resize(width, height, { fit: "fill" });
  p = fromGrey ? p.toColourspace("b-w") : p.ensureAlpha().extractChannel(3);
  const { data, info } = await p.raw().toBuffer({ resolveWithObject: true });
  if (info.channels === 1) return new Uint8Array(data);
  const out = new Uint8Array(width * height);
  for (let i = 0; i < out.length; i++) out[i] = data[i * info.channels]!;
  return out;
}

export function scoreMatte(alpha: Uint8Array, reference: Uint8Array): MatteScore {
  let inter = 0, union = 0, err = 0;
  for (let i = 0; i < alpha.length; i++) {
    const a = alpha[i]! >= 128, b = reference[i]! >= 128;
    if (a && b) inter++;
    if (a || b) union++;
    err += Math.abs(alpha[i]! - reference[i]!);
  }
  return { iou: union === 0 ? 1 : inter / union, alphaError: err / alpha.length / 255 };
}
