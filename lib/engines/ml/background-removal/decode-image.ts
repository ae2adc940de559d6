import { DAMAGED_IMAGE_MESSAGE, ImageHeaderError, openImage, readImageHeader, type ImageHeader } from "@/lib/engines/imaging/image-input";
import { ImageInputError } from "./image-input-error";

export type DecodedImage = {
  /** Upright (EXIF orientation applied), sRGB, 8-bit RGBA, width * height * 4 bytes. */
  rgba: Buffer;
  width: number;
  height: number;
  /** The source had its own transparency; the cut-out keeps it. */
  hasAlpha: boolean;
  /** Pixels per inch, carried to the output so print sizes stay right. */
  density?: number;
};

/**
 * Reads the header first (no pixel decoding) so oversized images and non-images
 * are refused cheaply, then decodes the whole image upright. Every failure here
 * is the caller's file, so each becomes an ImageInputError with a human message.
 */
export async function decodeImage(input: Buffer, maxPixels: number): Promise<DecodedImage> {
  let header: ImageHeader;
  try {
    header = await readImageHeader(input, maxPixels);
  } catch (err) {
    throw err instanceof ImageHeaderError ? new ImageInputError(err.message) : err;
  }
  try {
    const { data, info } = await openImage(input, maxPixels).autoOrient().toColourspace("srgb").ensureAlpha().raw({ depth: "uchar" }).toBuffer({ resolveWithObject: true });
    if (info.channels !== 4 || data.length !== info.width * info.height * 4) {
      throw new Error(`unexpected decode layout ${info.channels} channels`);
    }
    return { rgba: data, width: info.width, height: info.height, hasAlpha: header.hasAlpha, density: header.density };
  } catch {
    throw new ImageInputError(DAMAGED_IMAGE_MESSAGE);
  }
}
