import { pressProfilePath } from "./fixes/press-profile";
import { openImage, readImageHeader } from "./image-input";

export type CropBox = { x: number; y: number; width: number; height: number };
export type PrintSize = { widthIn: number; heightIn: number; ppi: number; bleedMm: number };
/**
 * The file's colours, as the product asks: `rgb` (a photo lab's: sRGB, or the lab's own RGB
 * profile when the studio gave one), `cmyk` (a press product: through the FOGRA39L press profile,
 * embedded, as the convert_color_mode fix does) or `grayscale` (one grey channel).
 */
export type PrintColour = { mode: "rgb" | "cmyk" | "grayscale"; labProfile?: string };
export type RenderedPrint = {
  jpeg: Buffer;
  /** A small sRGB picture of the same file, for the studio's pages. */
  thumb: Buffer;
  widthPx: number;
  heightPx: number;
  /** The trim size as printed: the product's, turned when the crop is the other way round. */
  widthIn: number;
  heightIn: number;
  /** The original's pixels per printed inch inside the crop (what the print really holds). */
  sourcePpi: number;
  /** The region of the upright original that fills the trim. */
  region: { left: number; top: number; width: number; height: number };
  /** The upright original's size (the region's frame). */
  source: { width: number; height: number };
};

const MM_PER_INCH = 25.4;
/** Print files: well above the lab minimum of 92, with no chroma subsampling (skin tones, thin type). */
const JPEG = { quality: 95, chromaSubsampling: "4:4:4", mozjpeg: false } as const;
const THUMB_PX = 480;

/**
 * A print-ready JPEG of one photo: the crop (fractions of the upright original)
 * at the print size exactly (8 x 10 in at 300 ppi is 2400 x 3000 px), the bleed
 * mirrored outwards from the trim edge, EXIF orientation applied, converted to
 * the product's colours (`colour`: sRGB with the profile embedded; with the lab's own
 * profile, an ICC file, converted on from sRGB into it by lcms2 and carrying it instead;
 * CMYK through the press profile; grey) and 300 ppi written in the header. One libvips
 * pipeline from the original's bytes: only the output is held whole.
 */
export async function renderPrint(original: Buffer, crop: CropBox | null, size: PrintSize, maxPixels: number, colour: PrintColour = { mode: "rgb" }): Promise<RenderedPrint> {
  const header = await readImageHeader(original, maxPixels);
  const W = header.width;
  const H = header.height;
  const { widthIn, heightIn, trimW, trimH, bleed, region } = printGeometry(W, H, crop, size);

  const pipeline = openImage(original, maxPixels)
    .autoOrient()
    .extract(region)
    .resize(trimW, trimH, { fit: "fill", kernel: "lanczos3" })
    .extend({ top: bleed, bottom: bleed, left: bleed, right: bleed, extendWith: "mirror" })
    .toColourspace("srgb")
    // withMetadata sets the output profile too: it goes there, not in a withIccProfile before it.
    // The lab's profile is an RGB one (lab-profile.ts refuses others): a press product's CMYK wins over it.
    .withMetadata({ density: size.ppi, icc: colour.mode === "cmyk" ? pressProfilePath() : colour.mode === "rgb" ? (colour.labProfile ?? "srgb") : "srgb" });
  let jpeg = await pipeline.jpeg(JPEG).toBuffer();
  // One grey channel and no profile (withMetadata would attach sRGB to it): a second, cheap pass
  // that keeps the header's 300 ppi (keepExif keeps the density; the original's EXIF was kept above).
  if (colour.mode === "grayscale") jpeg = await openImage(jpeg, (trimW + 2 * bleed) * (trimH + 2 * bleed)).toColourspace("b-w").keepExif().jpeg(JPEG).toBuffer();
  const thumb = await openImage(jpeg, (trimW + 2 * bleed) * (trimH + 2 * bleed))
    .resize(THUMB_PX, THUMB_PX, { fit: "inside" })
    .jpeg({ quality: 80 })
    .toBuffer();
  return { jpeg, thumb, widthPx: trimW + 2 * bleed, heightPx: trimH + 2 * bleed, widthIn, heightIn, sourcePpi: sourcePpiOf(region, widthIn, heightIn), region, source: { width: W, height: H } };
}

/**
 * Where a print comes from in the upright original (`W` x `H` px): the crop (fractions; none:
 * the whole frame) trimmed about its centre to the print's shape, the print turned when the
 * crop is landscape, and the trim and bleed in pixels. renderPrint cuts exactly this; checks
 * made before a render (the cart's, production's cut-out check) judge the same region.
 */
export function printGeometry(W: number, H: number, crop: CropBox | null, size: PrintSize) {
  const box = crop ?? { x: 0, y: 0, width: 1, height: 1 };
  // A landscape crop prints the product turned (an 8x10 ordered on a wide photo is a 10x8).
  const cropLandscape = box.width * W > box.height * H;
  const turn = cropLandscape !== size.widthIn > size.heightIn && size.widthIn !== size.heightIn;
  const widthIn = turn ? size.heightIn : size.widthIn;
  const heightIn = turn ? size.widthIn : size.heightIn;
  const trimW = Math.round(widthIn * size.ppi);
  const trimH = Math.round(heightIn * size.ppi);
  const bleed = Math.round((size.bleedMm / MM_PER_INCH) * size.ppi);

  // The crop in pixels, then trimmed about its centre to the print's shape (a crop the
  // storefront drew to the product's shape loses nothing; a free one loses an even edge).
  let left = Math.round(box.x * W);
  let top = Math.round(box.y * H);
  let width = Math.max(1, Math.min(W - left, Math.round(box.width * W)));
  let height = Math.max(1, Math.min(H - top, Math.round(box.height * H)));
  const aspect = trimW / trimH;
  if (width / height > aspect) {
    const w = Math.max(1, Math.round(height * aspect));
    left += Math.floor((width - w) / 2);
    width = w;
  } else {
    const h = Math.max(1, Math.round(width / aspect));
    top += Math.floor((height - h) / 2);
    height = h;
  }
  const region = { left, top, width, height };
  return { widthIn, heightIn, trimW, trimH, bleed, region };
}

/**
 * The original's pixels per inch inside the crop at the print's size: the lower of the two
 * directions, rounded down, as the cart's crop editor shows it (lib/services/orders/crop.ts
 * cropPpi), so the hold's figure is the one the parent and the studio saw.
 */
function sourcePpiOf(region: { width: number; height: number }, widthIn: number, heightIn: number): number {
  return Math.floor(Math.min(region.width / widthIn, region.height / heightIn));
}
