import { and, eq } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { jobFiles, products } from "@/lib/foundation/db/schema";
import { badRequest } from "@/lib/foundation/http/api-error";
import { printGeometry } from "@/lib/engines/imaging/render-print";
import type { ParentPrincipal } from "@/lib/services/galleries/parent-principal";
import { originalSize, requireVisiblePhoto } from "@/lib/services/galleries/parent-photos";
import { photoFace } from "@/lib/services/orders/photo-face";
import { sheetForJob } from "@/lib/services/orders/price-sheets";
import { facesUnderCrop, overSafeArea, safeAreaReasons } from "./face-safe-area";
import { HEAD_CUT_REASON, headCutInRegion } from "./head-cut";
import { storedMatte } from "./person-matte";
import type { PrintWarningsQuery } from "./schemas";
import { PRINT_PPI } from "./values";

export type PrintWarning = { code: "head_cut" | "face_outside_safe_area"; message: string };

/**
 * GET /v1/parent/photos/{photoId}/print-warnings: what production would hold this print
 * for, told to the parent before paying, in the hold's own words: the face where the crop
 * puts it crossing the print's safe area (face-safe-area.ts, the same geometry; production
 * may detect the face again on the file, the cart judges where the crop puts the stored
 * face), and, on a background, the child's head cut by the photo's top inside the crop
 * (head-cut.ts, on the photo's cut-out when one is made: the preview's, made when the
 * gallery opened, or the print's; none made yet, nothing is said rather than a cut-out
 * run while the parent waits). Nothing is computed from the engines here: stored faces
 * and mattes only. 404 for a photo the token does not open; 400 naming `item_id` for an
 * item that is not a print of the job's sheet.
 */
export async function printWarnings(db: Db, p: ParentPrincipal, photoId: string, q: PrintWarningsQuery): Promise<{ photo_id: string; warnings: PrintWarning[] }> {
  const photo = await requireVisiblePhoto(db, p, photoId);
  if (!q.item_id) throw badRequest("VALIDATION_ERROR", "Give the print item's id.", { fields: [{ field: "item_id", message: "Required." }] });
  const sheet = await sheetForJob(db, p.accountId, p.jobId);
  const item = sheet?.items.find((i) => i.id === q.item_id && i.kind === "print" && i.product_id);
  const [product] = item ? await db.select().from(products).where(and(eq(products.id, item.product_id!), eq(products.accountId, p.accountId))) : [];
  if (!item || !product) throw badRequest("VALIDATION_ERROR", "The item is not a print of this gallery's price sheet.", { fields: [{ field: "item_id", message: "Not a print of this gallery's price sheet." }] });
  const [file] = await db.select({ fileWidth: jobFiles.width, fileHeight: jobFiles.height }).from(jobFiles).where(eq(jobFiles.id, photo.jobFileId));
  const { original_width: W, original_height: H } = originalSize({ ...photo, fileWidth: file?.fileWidth ?? null, fileHeight: file?.fileHeight ?? null });
  if (!W || !H) return { photo_id: photoId, warnings: [] };
  const crop = q.x === undefined ? null : { x: q.x, y: q.y!, width: q.width!, height: q.height! };
  const size = { widthIn: product.widthIn, heightIn: product.heightIn, ppi: PRINT_PPI, bleedMm: product.bleedMm };
  const g = printGeometry(W, H, crop, size);
  const face = await photoFace(db, p.accountId, photo.jobFileId);
  const warnings: PrintWarning[] = [];

  if (q.background_id && item.allow_backgrounds) {
    const matte = (await storedMatte(db, p.accountId, photo.jobFileId, "preview")) ?? (await storedMatte(db, p.accountId, photo.jobFileId, "full"));
    if (matte && (await headCutInRegion(matte.matte, g.region, { width: W, height: H }, face?.faces ?? []))) warnings.push({ code: "head_cut", message: HEAD_CUT_REASON });
  }
  if (face) {
    const print = { widthPx: g.trimW + 2 * g.bleed, heightPx: g.trimH + 2 * g.bleed, region: g.region };
    const { safe, kept, expected } = facesUnderCrop(face.faces, print, { ppi: PRINT_PPI, bleedMm: product.bleedMm }, { width: W, height: H });
    const crossing = expected.map((b, i) => ({ i, seenAgain: false, over: overSafeArea(b, safe, PRINT_PPI) })).filter((c) => c.over.length);
    for (const message of safeAreaReasons(crossing, kept.length, product.bleedMm, () => "where the crop puts the face", () => "where the crop puts it")) warnings.push({ code: "face_outside_safe_area", message });
  }
  return { photo_id: photoId, warnings };
}
