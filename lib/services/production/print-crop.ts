import type { Db } from "@/lib/foundation/db/types";
import type { orderItems, printFiles } from "@/lib/foundation/db/schema";
import { faceStartCrop, type Crop } from "@/lib/services/orders/crop";
import { photoFace, type PhotoFace } from "@/lib/services/orders/photo-face";

/** A fixed file's crop is the studio's (none on another photo: where the print starts, below), else the parent's. */
export const printedCrop = (file: Pick<typeof printFiles.$inferSelect, "photoId" | "crop">, lineCrop: typeof orderItems.$inferSelect.crop) => (file.photoId || file.crop ? file.crop : lineCrop) ?? null;

type Size = { widthIn: number; heightIn: number };

/**
 * Where a print with no crop drawn is cut from (a package's prints: the cart draws no crop for a
 * package; a line or a fix sent without one): where the cart starts a single print's crop, around
 * the face at the print's shape (orders/crop.ts faceStartCrop, from the stored face and Face Crop's
 * window, photo-face.ts), as fractions of the upright photo (`width` x `height` px). So a package's
 * 4 x 5 of a child at the side of a wide photo is not a centred box through the face, and the
 * render, the head-cut and safe-area checks, the cart's warnings and the studio's fix all see the
 * same box. null: no face found (the whole photo at the print's shape, centred, as render-print takes it).
 */
export function startCropFrom(face: PhotoFace, photo: { width: number; height: number }, size: Size): Crop | null {
  if (!face) return null;
  const { width, height } = photo;
  return faceStartCrop({ width, height, original_width: width, original_height: height }, { width_in: size.widthIn, height_in: size.heightIn }, face.frame);
}

/** startCropFrom with the job photo's stored face (found once and kept). */
export async function startCrop(db: Db, accountId: string, jobFileId: number, photo: { width: number; height: number }, size: Size): Promise<Crop | null> {
  return startCropFrom(await photoFace(db, accountId, jobFileId), photo, size);
}
