import type sharp from "sharp";

/** Longest side of the viewer's preview: enough for a screen, a fraction of a 50-megapixel original. */
export const PREVIEW_MAX_SIDE = 1600;

export type RasterPreview = { bytes: Uint8Array; contentType: "image/png" | "image/jpeg" };

/**
 * A browser-friendly picture of a raster (browsers cannot show TIFF or CMYK
 * JPEG reliably): upright (EXIF applied), sRGB, 8-bit, at most 1600 px a side;
 * PNG when there is alpha so transparency stays visible, JPEG otherwise.
 * Decoding it reads every pixel, so it doubles as the integrity check.
 */
export async function renderPreview(image: sharp.Sharp, hasAlpha: boolean): Promise<RasterPreview> {
  const pipeline = image.rotate().resize(PREVIEW_MAX_SIDE, PREVIEW_MAX_SIDE, { fit: "inside", withoutEnlargement: true }).toColourspace("srgb");
  const out = hasAlpha ? await pipeline.png().toBuffer() : await pipeline.jpeg({ quality: 82 }).toBuffer();
  return { bytes: new Uint8Array(out.buffer, out.byteOffset, out.byteLength), contentType: hasAlpha ? "image/png" : "image/jpeg" };
}
