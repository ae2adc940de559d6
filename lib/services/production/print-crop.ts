import type { Db } from "@/lib/foundation/db/types";
import type { orderItems, printFiles } from "@/lib/foundation/db/schema";
import { faceStartCrop, type Crop } from "@/lib/services/orders/crop";
import { photoFace } from "@/lib/services/orders/photo-face";

/** A fixed file's crop is the studio's (none on another photo: where the print starts, below), else the parent's. */
export const printedCrop = (file: Pick<typeof printFiles.$inferSelect, "photoId" | "crop">, lineCrop: typeof orderItems.$inferSelect.crop) => (file.photoId || file.crop ? file.crop : lineCrop) ?? null;

/**
 * The box a print is cut from (fractions of the upright photo, `width` x `height` px): the
 * crop drawn for it, or, where none was (a package's prints: the cart draws no crop for a
 * package; a line or a fix sent without one), where the cart starts a single print's crop,
 * around the face at the print's shape (orders/crop.ts faceStartCrop, from the stored face
 * and Face Crop's window, photo-face.ts). So a package's 4 x 5 of a child at the side of a
 * wide photo is not a centred box through the face, and the render, the head-cut and
 * safe-area checks, the cart's warnings and the studio's fix all see the same box. null:
 * no face found (the whole photo at the print's shape, centred, as render-print takes it).
 */
export async function cropToPrint(db: Db, accountId: string, jobFileId: number, crop: Crop | null, photo: { width: number; height: number }, size: { widthIn: number; heightIn: number }): Promise<Crop | null> {
  if (crop) return crop;
  const face = await photoFace(db, accountId, jobFileId);
  if (!face) return null;
  const { width, height } = photo;
  return faceStartCrop({ width, height, original_width: width, original_height: height }, { width_in: size.widthIn, height_in: size.heightIn }, face.frame);
}
