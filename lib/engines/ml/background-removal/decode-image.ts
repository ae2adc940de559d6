import sharp from "sharp";
import { ImageInputError } from "./image-input-error";

/** sharp's names for the formats we accept ("heif" is how it reports AVIF). */
const READABLE_FORMATS = new Set(["jpeg", "png", "webp", "tiff", "gif", "heif"]);
const FORMAT_NAMES = "JPEG, PNG, WebP, TIFF, GIF or AVIF";

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

const megapixels = (pixels: number) => (pixels / 1_000_000).toFixed(1).replace(/\.0$/, "");

/**
 * Reads the header first (no pixel decoding) so oversized images and non-images
 * are refused cheaply, then decodes the whole image upright. Every failure here
 * is the caller's file, so each becomes an ImageInputError with a human message.
 */
export async function decodeImage(input: Buffer, maxPixels: number): Promise<DecodedImage> {
  if (input.length === 0) throw new ImageInputError("The file is empty: send a " + FORMAT_NAMES + " image.");

  let meta: sharp.Metadata;
  try {
    meta = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw new ImageInputError(`The file is not an image we can read: send a ${FORMAT_NAMES} image.`);
  }
  if (meta.format === "svg") {
    throw new ImageInputError(`SVG drawings are not supported for background removal: send a ${FORMAT_NAMES} image.`);
  }
  if (!READABLE_FORMATS.has(meta.format ?? "") || !meta.width || !meta.height) {
    throw new ImageInputError(`The file is not an image we can read: send a ${FORMAT_NAMES} image.`);
  }
  const pixels = meta.width * meta.height;
  if (pixels > maxPixels) {
    throw new ImageInputError(
      `The image is ${meta.width} × ${meta.height} pixels (${megapixels(pixels)} megapixels); ` +
        `the largest accepted is ${megapixels(maxPixels)} megapixels. Resize it and try again.`,
    );
  }

  try {
    // failOn "truncated": a cut-off file is refused, while the harmless warnings many
    // cameras' JPEGs carry are not. limitInputPixels guards the decoder itself too.
    const { data, info } = await sharp(input, { limitInputPixels: maxPixels, failOn: "truncated" })
      .autoOrient()
      .toColourspace("srgb")
      .ensureAlpha()
      .raw({ depth: "uchar" })
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 4 || data.length !== info.width * info.height * 4) {
      throw new Error(`unexpected decode layout ${info.channels} channels`);
    }
    return {
      rgba: data,
      width: info.width,
      height: info.height,
      hasAlpha: meta.hasAlpha === true,
      density: meta.density,
    };
  } catch {
    throw new ImageInputError("The image file is damaged or incomplete and could not be decoded.");
  }
}
