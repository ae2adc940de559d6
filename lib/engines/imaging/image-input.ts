import sharp from "sharp";

/**
 * How every engine reads a caller's image (background removal, faces, and what
 * they serve: face crop, matching, QR sort): one format allow-list, one pixel
 * limit measured on the upright image, one set of decoder settings, and one
 * customer-facing wording. Engines wrap the failure in their own error class
 * (ImageInputError, FaceInputError), whose name and code the services report.
 */

/**
 * sharp's names for the formats we read ("heif" is how it reports AVIF). No GIF:
 * the contract names JPEG, PNG and WebP for photos, and a GIF is a palette of at
 * most 256 colours (often animated) that no print product is made from.
 */
export const IMAGE_FORMATS = ["jpeg", "png", "webp", "tiff", "heif"] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];
export const IMAGE_FORMAT_NAMES = "JPEG, PNG, WebP, TIFF or AVIF";

export type ImageProblem = "UNREADABLE_IMAGE" | "IMAGE_TOO_LARGE";

/** The caller's file cannot be read as an image; `message` is written for people. */
export class ImageHeaderError extends Error {
  constructor(
    readonly code: ImageProblem,
    message: string,
  ) {
    super(message);
    this.name = "ImageHeaderError";
  }
}

export type ImageHeader = {
  format: ImageFormat;
  /** Size as displayed, after the EXIF orientation is applied. */
  width: number;
  height: number;
  /** EXIF orientation 1..8 (1 = upright; 5..8 swap width and height). */
  orientation: number;
  /** The source has its own transparency. */
  hasAlpha: boolean;
  /** Pixels per inch, when the file says. */
  density?: number;
};

/** A valid EXIF orientation (1..8), 1 for a missing or nonsensical tag. */
export function exifOrientation(orientation: number | undefined): number {
  return orientation && orientation >= 1 && orientation <= 8 ? orientation : 1;
}

/** The size as every viewer shows it: orientations 5..8 turn the picture a quarter. */
export function uprightSize(meta: { width: number; height: number; orientation?: number }): { width: number; height: number } {
  return exifOrientation(meta.orientation) >= 5 ? { width: meta.height, height: meta.width } : { width: meta.width, height: meta.height };
}

const megapixels = (pixels: number) => (pixels / 1_000_000).toFixed(1).replace(/\.0$/, "");

/** What to say when the pixels themselves cannot be decoded. */
export const DAMAGED_IMAGE_MESSAGE = "The image file is damaged or incomplete and could not be decoded: export it again and retry.";

/**
 * Reads the header only (no pixels are decoded), so non-images, formats we do not
 * read and oversized images are refused cheaply. `maxPixels` is the engine's
 * limit; the size it reports is the upright one.
 */
export async function readImageHeader(bytes: Buffer | Uint8Array, maxPixels: number): Promise<ImageHeader> {
  if (bytes.length === 0) throw new ImageHeaderError("UNREADABLE_IMAGE", `The file is empty: send a ${IMAGE_FORMAT_NAMES} image.`);
  let meta: sharp.Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw new ImageHeaderError("UNREADABLE_IMAGE", `The file is not an image we can read: send a ${IMAGE_FORMAT_NAMES} image.`);
  }
  if (meta.format === "svg") throw new ImageHeaderError("UNREADABLE_IMAGE", `SVG drawings are not supported: send a ${IMAGE_FORMAT_NAMES} image.`);
  if (meta.format === "gif") throw new ImageHeaderError("UNREADABLE_IMAGE", `GIF images are not supported: send a ${IMAGE_FORMAT_NAMES} image.`);
  const format = IMAGE_FORMATS.find((f) => f === meta.format);
  if (!format || !meta.width || !meta.height) {
    throw new ImageHeaderError("UNREADABLE_IMAGE", `The file is not an image we can read: send a ${IMAGE_FORMAT_NAMES} image.`);
  }
  const orientation = exifOrientation(meta.orientation);
  const { width, height } = uprightSize({ width: meta.width, height: meta.height, orientation });
  if (width * height > maxPixels) {
    throw new ImageHeaderError(
      "IMAGE_TOO_LARGE",
      `The image is ${width} × ${height} pixels (${megapixels(width * height)} megapixels); ` +
        `the largest accepted is ${megapixels(maxPixels)} megapixels. Resize it and try again.`,
    );
  }
  return { format, width, height, orientation, hasAlpha: meta.hasAlpha === true, density: meta.density };
}

/**
 * How strictly a caller's pixels are decoded, everywhere: a truncated or corrupt
 * file is refused, while the warnings many cameras' JPEGs carry are not (sharp's
 * own default, "warning", refuses those too).
 */
export const DECODE_FAIL_ON = "error" as const;

/**
 * The decoder every engine opens a caller's image with, after readImageHeader
 * passed it: DECODE_FAIL_ON, and limitInputPixels at the engine's limit, which
 * guards the decoder itself as well as the header check.
 */
export function openImage(bytes: Buffer | Uint8Array, maxPixels: number): sharp.Sharp {
  return sharp(bytes, { limitInputPixels: maxPixels, failOn: DECODE_FAIL_ON });
}
