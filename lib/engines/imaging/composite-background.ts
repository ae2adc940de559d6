import sharp from "sharp";
import { openImage, readImageHeader } from "./image-input";

export type Backdrop = { color: string } | { image: Buffer };

/**
 * The upright photo with its person composited onto a backdrop: out = photo × a +
 * backdrop × (1 − a), a the matte (8-bit grey, 255 the person, at the photo's
 * upright size), so the matte's soft edge is kept and nothing is added (no shadow,
 * no outline). A picture backdrop is cover-fitted to the photo's frame (centred);
 * a colour is flat. The result is lossless (PNG, fast compression), at the
 * photo's size, with no EXIF turn left: the print's crop boxes stay valid on it.
 */
export async function compositeOnBackdrop(photo: Buffer, matte: Buffer, backdrop: Backdrop, maxPixels: number): Promise<Buffer> {
  const { width, height } = await readImageHeader(photo, maxPixels);
  const alpha = await sharp(matte).extractChannel(0).resize(width, height, { fit: "fill" }).raw().toBuffer();
  // Two pipelines: sharp orders a pipeline's operations itself, and would drop the joined matte with the photo's own alpha.
  const upright = await openImage(photo, maxPixels).autoOrient().toColourspace("srgb").removeAlpha().raw().toBuffer();
  const person = await sharp(upright, { raw: { width, height, channels: 3 } })
    .joinChannel(alpha, { raw: { width, height, channels: 1 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
  const base =
    "color" in backdrop
      ? sharp({ create: { width, height, channels: 3, background: backdrop.color } })
      : openImage(backdrop.image, maxPixels).autoOrient().toColourspace("srgb").removeAlpha().resize(width, height, { fit: "cover", position: "centre" });
  // Resized first in its own pipeline: sharp composites before it resizes.
  const backdropPx = await base.png({ compressionLevel: 0 }).toBuffer();
  return sharp(backdropPx).composite([{ input: person, blend: "over" }]).removeAlpha().png({ compressionLevel: 1 }).toBuffer();
}
