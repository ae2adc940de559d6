import type { Sharp } from "sharp";

/**
 * Raw output of a one-channel (mask) pipeline. sharp would otherwise convert a
 * single band to three sRGB channels on output.
 */
export async function singleChannel(pipeline: Sharp, expectedLength: number): Promise<Uint8Array> {
  const out = await pipeline.toColourspace("b-w").raw().toBuffer();
  if (out.length !== expectedLength) throw new Error(`mask has ${out.length} bytes, expected ${expectedLength}`);
  return new Uint8Array(out.buffer, out.byteOffset, out.length);
}
