import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { galleryPhotos, jobFiles, orderItems, printFiles, products, studioBackgrounds, type HoldCode } from "@/lib/foundation/db/schema";
import { storage } from "@/lib/domain/storage";
import { printGeometry, renderPrint, type PrintColour } from "@/lib/engines/imaging/render-print";
import { readImageHeader } from "@/lib/engines/imaging/image-input";
import { compositeOnBackdrop } from "@/lib/engines/imaging/composite-background";
import { photoMatte } from "./person-matte";
import { faceSafeAreaReasons } from "./face-safe-area";
import { labProfileForRender } from "./lab-profile";
import { HEAD_CUT_REASON, headCutInRegion } from "./head-cut";
import { photoFace } from "@/lib/services/orders/photo-face";
import type { Crop } from "@/lib/services/orders/crop";
import { runAnalysis } from "@/lib/services/preflight/run-analysis";
import { preflightConfig } from "@/lib/services/preflight/preflight-config";
import { resolutionSeverity, type CheckTargets } from "@/lib/services/preflight/issue";
import { PRINT_PPI } from "./values";
import { printedCrop, startCrop } from "./print-crop";

export const printFileKey = (accountId: string, orderId: string, fileId: string, what: "print" | "thumb") => `production/${accountId}/${orderId}/${fileId}-${what}.jpg`;

/**
 * Renders these print files from their originals and checks each with Preflight
 * for its product: a file that fails (or whose crop holds too few of the original's
 * pixels for its size) is held, with the reasons, instead of going to the lab.
 * Files already rendered or held are left alone, so a step that runs again after a
 * restart does no work twice.
 */
export async function renderPrintFiles(db: Db, accountId: string, fileIds: string[], signal?: AbortSignal): Promise<number> {
  if (fileIds.length === 0) return 0;
  const rows = await db
    .select({ file: printFiles, crop: orderItems.crop, jobFileId: jobFiles.id, storageKey: jobFiles.storageKey, product: products, background: studioBackgrounds })
    .from(printFiles)
    .innerJoin(orderItems, eq(orderItems.id, printFiles.orderItemId))
    // The studio's fix of a held file (another photo of the child) wins over the order line's photo.
    .leftJoin(galleryPhotos, and(eq(galleryPhotos.id, sql`coalesce(${printFiles.photoId}, ${orderItems.photoId})`), eq(galleryPhotos.accountId, accountId)))
    .leftJoin(jobFiles, eq(jobFiles.id, galleryPhotos.jobFileId))
    .leftJoin(products, eq(products.id, printFiles.productId))
    .leftJoin(studioBackgrounds, and(eq(studioBackgrounds.id, printFiles.backgroundId), eq(studioBackgrounds.accountId, accountId)))
    .where(and(eq(printFiles.accountId, accountId), inArray(printFiles.id, fileIds), eq(printFiles.status, "pending")));
  const c = preflightConfig();
  // The lab's colour profile, read once for the step: every file of it goes to the same lab.
  const profile = rows.length ? await labProfileForRender(db, accountId) : { path: null, missing: null };
  const outputProfile = profile.path ?? undefined;
  let done = 0;
  for (const row of rows) {
    signal?.throwIfAborted();
    if (profile.missing) {
      // Held, not rendered in sRGB: the lab prints its own profile's values, so sRGB pixels would come out in the wrong colours.
      await hold(db, row.file.id, "lab_profile_missing", [`The lab's colour profile "${profile.missing}" is missing from storage: upload it again in Production settings (or remove it to print in sRGB); this print is then rendered.`]);
      done++;
      continue;
    }
    const original = row.storageKey ? await storage().get(row.storageKey) : null;
    if (!original || !row.product) {
      await hold(db, row.file.id, "missing", [!row.product ? "The product of this item no longer exists: choose another product for it." : "The original photo is missing from storage: choose another photo for this item."]);
      done++;
      continue;
    }
    const product = row.product;
    const crop = printedCrop(row.file, row.crop) ?? (await startCrop(db, accountId, row.jobFileId!, await readImageHeader(original.body, c.PREFLIGHT_MAX_PIXELS), product));
    let source = original.body;
    if (row.file.backgroundId) {
      const backdrop = await backdropOf(row.background);
      if (!backdrop) {
        await hold(db, row.file.id, "missing", ["The background chosen for this item is no longer in the studio's set: choose another background, or print it as shot."]);
        done++;
        continue;
      }
      // The matte of the original, made once per photo and kept for every print of it.
      const matte = await photoMatte(db, accountId, row.jobFileId!, original.body, signal);
      const doubts = [...matte.doubts];
      if (await headCutInPrint(db, accountId, row.jobFileId!, matte, crop, product)) doubts.push(HEAD_CUT_REASON);
      if (doubts.length > 0 && !row.file.matteReleased) {
        await hold(db, row.file.id, "matte_doubtful", doubts);
        done++;
        continue;
      }
      // Composite at the original's size first, then the same crop as any print.
      source = await compositeOnBackdrop(original.body, matte.matte, backdrop, c.PREFLIGHT_MAX_PIXELS);
    }
    const print = await renderPrint(source, crop, { widthIn: product.widthIn, heightIn: product.heightIn, ppi: PRINT_PPI, bleedMm: product.bleedMm }, c.PREFLIGHT_MAX_PIXELS, { mode: product.colorMode as PrintColour["mode"], labProfile: outputProfile });
    const fileKey = printFileKey(accountId, row.file.orderId, row.file.id, "print");
    const thumbKey = printFileKey(accountId, row.file.orderId, row.file.id, "thumb");
    await storage().put(fileKey, print.jpeg, "image/jpeg");
    await storage().put(thumbKey, print.thumb, "image/jpeg");

    const targets: CheckTargets = {
      requiredDpi: product.minPpi,
      requiredDpiSource: "productProfile",
      requiredColorMode: product.colorMode as CheckTargets["requiredColorMode"],
      canvas: { widthIn: print.widthIn, heightIn: print.heightIn },
      declaredFileType: "jpeg",
      productType: product.productType,
      ...(product.bleedMm > 0 ? { bleedMm: product.bleedMm } : {}),
    };
    const report = await runAnalysis(new Uint8Array(print.jpeg), "jpeg", targets, { maxPixels: c.PREFLIGHT_MAX_PIXELS, maxPdfPages: c.PREFLIGHT_MAX_PDF_PAGES }, { timeoutMs: c.PREFLIGHT_TIMEOUT_MS, memoryMb: c.PREFLIGHT_WORKER_MEMORY_MB, concurrency: c.PREFLIGHT_WORKERS });
    const reasons = report.issues.filter((i) => i.severity === "error").map((i) => i.message);
    // The file is 300 ppi by construction; what it really holds is the original's pixels in the crop.
    if (resolutionSeverity(print.sourcePpi, product.minPpi) === "error" && print.sourcePpi < product.minPpi) {
      reasons.push(`The crop holds ${print.sourcePpi} ppi of the original at ${print.widthIn} x ${print.heightIn} in (${print.region.width} x ${print.region.height} px); ${product.minPpi} ppi required. Choose a larger crop or a sharper photo.`);
    }
    const faceReasons = await faceSafeAreaReasons(db, accountId, row.jobFileId!, print, { ppi: PRINT_PPI, bleedMm: product.bleedMm }, print.source);
    const holdCode: HoldCode | null = reasons.length ? "preflight" : faceReasons.length ? "face_outside_safe_area" : null;
    reasons.push(...faceReasons);
    await db
      .update(printFiles)
      .set({
        status: reasons.length ? "held" : "rendered",
        holdReasons: reasons,
        holdCode,
        fileKey,
        thumbKey,
        widthPx: print.widthPx,
        heightPx: print.heightPx,
        widthIn: print.widthIn,
        heightIn: print.heightIn,
        sourcePpi: print.sourcePpi,
        renderedAt: new Date(),
      })
      .where(and(eq(printFiles.id, row.file.id), eq(printFiles.status, "pending")));
    done++;
  }
  return done;
}

/**
 * Whether this print shows the child's head cut by the photo's top edge (head-cut.ts): the
 * region the print is cut from (the matte is the upright original's size), the photo's faces.
 */
export async function headCutInPrint(db: Db, accountId: string, jobFileId: number, matte: { matte: Buffer; width: number; height: number }, crop: Crop | null, product: { widthIn: number; heightIn: number; bleedMm: number }) {
  const { region } = printGeometry(matte.width, matte.height, crop, { widthIn: product.widthIn, heightIn: product.heightIn, ppi: PRINT_PPI, bleedMm: product.bleedMm });
  const face = await photoFace(db, accountId, jobFileId);
  return headCutInRegion(matte.matte, region, matte, face?.faces ?? []);
}

/** What the child is composited onto: the background's colour, or its stored picture (none when it is gone). */
export async function backdropOf(background: typeof studioBackgrounds.$inferSelect | null) {
  if (!background) return null;
  if (background.kind === "color") return { color: background.color! };
  const picture = await storage().get(background.storageKey!);
  return picture ? { image: picture.body } : null;
}

async function hold(db: Db, id: string, code: HoldCode, reasons: string[]) {
  await db.update(printFiles).set({ status: "held", holdCode: code, holdReasons: reasons }).where(and(eq(printFiles.id, id), eq(printFiles.status, "pending")));
}
