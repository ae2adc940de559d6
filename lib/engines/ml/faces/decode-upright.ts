import sharp from "sharp";
import { DAMAGED_IMAGE_MESSAGE, ImageHeaderError, openImage, readImageHeader } from "@/lib/engines/imaging/image-input";
import { FaceInputError } from "./face-input-error";

export type UprightImage = {
  /** Upright size of the source (EXIF orientation applied). */
  width: number;
  height: number;
  /** RGB pixels of the upright image scaled to at most `detectLongEdge` on its long side. */
  rgb: Buffer;
  rgbWidth: number;
  rgbHeight: number;
  /** Source pixels per detection pixel. */
  scale: number;
};

/** Smallest side a face can be found in. */
const MIN_SIDE = 32;

/** Reads the header (lib/engines/imaging/image-input.ts) and refuses what cannot work before decoding any pixels. */
export async function probeImage(bytes: Buffer | Uint8Array, maxPixels: number): Promise<{ width: number; height: number }> {
  let size: { width: number; height: number };
  try {
    size = await readImageHeader(bytes, maxPixels);
  } catch (err) {
    throw err instanceof ImageHeaderError ? new FaceInputError(err.code, err.message) : err;
  }
  const { width, height } = size;
  if (Math.min(width, height) < MIN_SIDE) {
    throw new FaceInputError("IMAGE_TOO_SMALL", `The image is ${width} × ${height} pixels: too small to find a face in (at least ${MIN_SIDE} pixels on each side).`);
  }
  return { width, height };
}

/**
 * Decodes the image upright (EXIF orientation applied, as every viewer shows it)
 * and scales it down for the detector, which looks at 256 px anyway: decoding a
 * 24 MP photo at full size for it would only cost memory.
 */
export async function decodeUpright(bytes: Buffer | Uint8Array, opts: { maxPixels: number; detectLongEdge: number }): Promise<UprightImage> {
  const { width, height } = await probeImage(bytes, opts.maxPixels);
  const scale = Math.max(1, Math.max(width, height) / opts.detectLongEdge);
  try {
    const { data, info } = await openImage(bytes, opts.maxPixels)
      .rotate()
      .resize(Math.round(width / scale), Math.round(height / scale), { fit: "fill" })
      .removeAlpha()
      .toColourspace("srgb")
      .raw()
      .toBuffer({ resolveWithObject: true });
    return { width, height, rgb: data, rgbWidth: info.width, rgbHeight: info.height, scale: width / info.width };
  } catch {
    throw new FaceInputError("UNREADABLE_IMAGE", DAMAGED_IMAGE_MESSAGE);
  }
}

/**
 * For embeddings: the upright image once at up to `embedLongEdge` (faces are cut
 * from it at the recognition net's scale), and the detector's copy scaled from it
 * (no second decode of the file).
 */
export async function decodeUprightForEmbedding(
  bytes: Buffer | Uint8Array,
  opts: { maxPixels: number; detectLongEdge: number; embedLongEdge: number },
): Promise<{ detect: UprightImage; full: { data: Buffer; width: number; height: number; scale: number } }> {
  const { width, height } = await probeImage(bytes, opts.maxPixels);
  const k = Math.max(1, Math.max(width, height) / opts.embedLongEdge);
  try {
    const full = await openImage(bytes, opts.maxPixels)
      .rotate()
      .resize(Math.round(width / k), Math.round(height / k), { fit: "fill" })
      .removeAlpha()
      .toColourspace("srgb")
      .raw()
      .toBuffer({ resolveWithObject: true });
    const scale = Math.max(1, Math.max(width, height) / opts.detectLongEdge);
    const { data, info } = await sharp(full.data, { raw: { width: full.info.width, height: full.info.height, channels: 3 } })
      .resize(Math.round(width / scale), Math.round(height / scale), { fit: "fill" })
      .raw()
      .toBuffer({ resolveWithObject: true });
    return {
      detect: { width, height, rgb: data, rgbWidth: info.width, rgbHeight: info.height, scale: width / info.width },
      full: { data: full.data, width: full.info.width, height: full.info.height, scale: width / full.info.width },
    };
  } catch {
    throw new FaceInputError("UNREADABLE_IMAGE", DAMAGED_IMAGE_MESSAGE);
  }
}
