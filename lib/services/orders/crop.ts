// The cart's crop, as fractions of the photo (what order_items.crop stores), at a
// print's aspect. Client-safe: the cart's editor and its tests use it.

export type Crop = { x: number; y: number; width: number; height: number };
export type PrintSize = { width_in: number; height_in: number };
/** The preview's size (its aspect is the photo's) and the original's pixels (for ppi). */
export type CropPhoto = { width: number; height: number; original_width: number; original_height: number };

/** Below this a print is warned about: the usual floor for a sharp photographic print. */
export const PRINT_PPI_FLOOR = 300;
/** The smallest crop, as a share of the largest: zooming in stops there. */
export const MIN_CROP_SCALE = 0.25;

const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, n));

/** The print's size in the photo's orientation (a portrait photo prints portrait). */
export function orientedSize(photo: Pick<CropPhoto, "width" | "height">, size: PrintSize): PrintSize {
  const long = Math.max(size.width_in, size.height_in);
  const short = Math.min(size.width_in, size.height_in);
  return photo.height >= photo.width ? { width_in: short, height_in: long } : { width_in: long, height_in: short };
}

/** The largest box at the print's aspect inside the photo, centred: where a crop starts and the most it can hold. */
export function largestCrop(photo: Pick<CropPhoto, "width" | "height">, size: PrintSize): Crop {
  const print = orientedSize(photo, size);
  const aspect = print.width_in / print.height_in;
  const photoAspect = photo.width / Math.max(1, photo.height);
  const width = aspect < photoAspect ? aspect / photoAspect : 1;
  const height = aspect < photoAspect ? 1 : photoAspect / aspect;
  return { x: (1 - width) / 2, y: (1 - height) / 2, width, height };
}

/** Keeps the box inside the photo (its size unchanged). */
export function keepInside(crop: Crop): Crop {
  return { ...crop, x: clamp(crop.x, 0, 1 - crop.width), y: clamp(crop.y, 0, 1 - crop.height) };
}

/** Moves the box by a fraction of the photo, stopping at its edges. */
export function moveCrop(crop: Crop, dx: number, dy: number): Crop {
  return keepInside({ ...crop, x: crop.x + dx, y: crop.y + dy });
}

/** How far the box is zoomed in: 1 is the largest box, MIN_CROP_SCALE the smallest. */
export function cropScale(crop: Crop, largest: Crop): number {
  return crop.width / largest.width;
}

/** The box at `scale` of the largest (clamped), about its centre, kept inside the photo; the aspect never changes. */
export function zoomCrop(crop: Crop, largest: Crop, scale: number): Crop {
  const s = clamp(scale, MIN_CROP_SCALE, 1);
  const width = largest.width * s;
  const height = largest.height * s;
  const cx = crop.x + crop.width / 2;
  const cy = crop.y + crop.height / 2;
  return keepInside({ x: cx - width / 2, y: cy - height / 2, width, height });
}

/** Pixels per inch of the original inside the box, printed at `size`: the lower of the two directions. */
export function cropPpi(crop: Crop, photo: CropPhoto, size: PrintSize): number {
  const print = orientedSize(photo, size);
  return Math.floor(Math.min((crop.width * photo.original_width) / print.width_in, (crop.height * photo.original_height) / print.height_in));
}

/**
 * Where a print's crop starts on a photo with a face: Face Crop's window (`frame`,
 * fractions, its head size and eye line for the job's preset) kept at its centre and
 * height, at the print's aspect; made larger where that would print under
 * PRINT_PPI_FLOOR (up to the largest box) or zoom in past MIN_CROP_SCALE, then moved
 * inside the photo. No frame (no face found): the largest centred box.
 */
export function faceStartCrop(photo: CropPhoto, size: PrintSize, frame: Crop | null): Crop {
  const largest = largestCrop(photo, size);
  if (!frame) return largest;
  const floor = Math.min(1, PRINT_PPI_FLOOR / Math.max(1, cropPpi(largest, photo, size)));
  const scale = clamp(frame.height / largest.height, Math.max(MIN_CROP_SCALE, floor), 1);
  const width = largest.width * scale;
  const height = largest.height * scale;
  return keepInside({ x: frame.x + frame.width / 2 - width / 2, y: frame.y + frame.height / 2 - height / 2, width, height });
}
