import { and, eq, inArray } from "drizzle-orm";
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
import { startCropFrom } from "./print-crop";

export type PrintWarning = { code: "head_cut" | "face_outside_safe_area"; message: string; item_id: string };

type SheetRow = NonNullable<Awaited<ReturnType<typeof sheetForJob>>>;
type Print = { item: SheetRow["items"][number]; product: typeof products.$inferSelect };

const fieldError = (field: string, message: string) => badRequest("VALIDATION_ERROR", message, { fields: [{ field, message }] });

/**
 * GET /v1/parent/photos/{photoId}/print-warnings: what production would hold this print
 * (or each print of a package) for, told to the parent before paying, in the hold's own
 * words: the face where the crop puts it crossing the print's safe area (face-safe-area.ts,
 * the same geometry; production may detect the face again on the file, the cart judges
 * where the crop puts the stored face), and, on a background, the child's head cut by the
 * photo's top inside the crop (head-cut.ts, on the photo's cut-out when one is made: the
 * preview's, made when the gallery opened, or the print's; none made yet, nothing is said
 * rather than a cut-out run while the parent waits). Without a crop (the cart's package
 * lines) each print starts around the face as production renders it (print-crop.ts), and
 * a package's warnings name the print. Nothing is computed from the engines here: stored faces
 * and mattes only. 404 for a photo the token does not open; 400 naming `item_id` (or
 * `package_id`) for what is not a print (a package) of the job's sheet.
 */
export async function printWarnings(db: Db, p: ParentPrincipal, photoId: string, q: PrintWarningsQuery): Promise<{ photo_id: string; warnings: PrintWarning[] }> {
  const photo = await requireVisiblePhoto(db, p, photoId);
  if (!q.item_id && !q.package_id) throw fieldError("item_id", "Give the print item's id (or a package's, as package_id).");
  if (q.item_id && q.package_id) throw fieldError("package_id", "Give item_id or package_id, not both.");
  const prints = await printsAsked(db, p, q);
  const [file] = await db.select({ fileWidth: jobFiles.width, fileHeight: jobFiles.height }).from(jobFiles).where(eq(jobFiles.id, photo.jobFileId));
  const { original_width: W, original_height: H } = originalSize({ ...photo, fileWidth: file?.fileWidth ?? null, fileHeight: file?.fileHeight ?? null });
  if (!W || !H || !prints.length) return { photo_id: photoId, warnings: [] };
  const crop = q.x === undefined ? null : { x: q.x, y: q.y!, width: q.width!, height: q.height! };
  const face = await photoFace(db, p.accountId, photo.jobFileId);
  const needsMatte = q.background_id && prints.some((x) => x.item.allow_backgrounds);
  const matte = needsMatte ? ((await storedMatte(db, p.accountId, photo.jobFileId, "preview")) ?? (await storedMatte(db, p.accountId, photo.jobFileId, "full"))) : null;
  const warnings: PrintWarning[] = [];
  for (const { item, product } of prints) {
    const box = crop ?? startCropFrom(face, { width: W, height: H }, product);
    const g = printGeometry(W, H, box, { widthIn: product.widthIn, heightIn: product.heightIn, ppi: PRINT_PPI, bleedMm: product.bleedMm });
    const named = (message: string) => (q.package_id ? `${item.name}: ${message}` : message);
    if (matte && item.allow_backgrounds && (await headCutInRegion(matte.matte, g.region, { width: W, height: H }, face?.faces ?? []))) {
      warnings.push({ code: "head_cut", message: named(HEAD_CUT_REASON), item_id: item.id });
    }
    if (!face) continue;
    const print = { widthPx: g.trimW + 2 * g.bleed, heightPx: g.trimH + 2 * g.bleed, region: g.region };
    const { safe, kept, expected } = facesUnderCrop(face.faces, print, { ppi: PRINT_PPI, bleedMm: product.bleedMm }, { width: W, height: H });
    const crossing = expected.map((b, i) => ({ i, seenAgain: false, over: overSafeArea(b, safe, PRINT_PPI) })).filter((c) => c.over.length);
    for (const message of safeAreaReasons(crossing, kept.length, product.bleedMm, () => "where the crop puts the face", () => "where the crop puts it")) {
      warnings.push({ code: "face_outside_safe_area", message: named(message), item_id: item.id });
    }
  }
  return { photo_id: photoId, warnings };
}

/** The print asked about, or each print of the package (its other items, digital files, print nothing). */
async function printsAsked(db: Db, p: ParentPrincipal, q: PrintWarningsQuery): Promise<Print[]> {
  const sheet = await sheetForJob(db, p.accountId, p.jobId);
  const isPrint = (i: SheetRow["items"][number]) => i.kind === "print" && !!i.product_id;
  let items: SheetRow["items"];
  if (q.item_id) {
    items = sheet?.items.filter((i) => i.id === q.item_id && isPrint(i)) ?? [];
    if (!items.length) throw fieldError("item_id", "Not a print of this gallery's price sheet.");
  } else {
    const pack = sheet?.packages.find((x) => x.id === q.package_id);
    if (!pack) throw fieldError("package_id", "Not a package of this gallery's price sheet.");
    const ids = new Set(pack.items.map((x) => x.item_id));
    items = sheet!.items.filter((i) => ids.has(i.id) && isPrint(i));
  }
  const productIds = [...new Set(items.map((i) => i.product_id!))];
  const found = productIds.length ? await db.select().from(products).where(and(eq(products.accountId, p.accountId), inArray(products.id, productIds))) : [];
  const prints = items.flatMap((item) => {
    const product = found.find((x) => x.id === item.product_id);
    return product ? [{ item, product }] : [];
  });
  if (q.item_id && !prints.length) throw fieldError("item_id", "Not a print of this gallery's price sheet.");
  return prints;
}
