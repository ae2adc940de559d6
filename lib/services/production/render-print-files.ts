import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { galleryPhotos, jobFiles, orderItems, printFiles, products } from "@/lib/foundation/db/schema";
import { storage } from "@/lib/domain/storage";
import { renderPrint } from "@/lib/engines/imaging/render-print";
import { runAnalysis } from "@/lib/services/preflight/run-analysis";
import { preflightConfig } from "@/lib/services/preflight/preflight-config";
import { resolutionSeverity, type CheckTargets } from "@/lib/services/preflight/issue";
import { PRINT_PPI } from "./values";

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
    .select({ file: printFiles, crop: orderItems.crop, storageKey: jobFiles.storageKey, product: products })
    .from(printFiles)
    .innerJoin(orderItems, eq(orderItems.id, printFiles.orderItemId))
    .leftJoin(galleryPhotos, and(eq(galleryPhotos.id, orderItems.photoId), eq(galleryPhotos.accountId, accountId)))
    .leftJoin(jobFiles, eq(jobFiles.id, galleryPhotos.jobFileId))
    .leftJoin(products, eq(products.id, printFiles.productId))
    .where(and(eq(printFiles.accountId, accountId), inArray(printFiles.id, fileIds), eq(printFiles.status, "pending")));
  const c = preflightConfig();
  let done = 0;
  for (const row of rows) {
    signal?.throwIfAborted();
    const original = row.storageKey ? await storage().get(row.storageKey) : null;
    if (!original || !row.product) {
      await hold(db, row.file.id, [!row.product ? "The product of this item no longer exists: choose another product for it." : "The original photo is missing from storage: choose another photo for this item."]);
      done++;
      continue;
    }
    const product = row.product;
    const print = await renderPrint(original.body, row.crop ?? null, { widthIn: product.widthIn, heightIn: product.heightIn, ppi: PRINT_PPI, bleedMm: product.bleedMm }, c.PREFLIGHT_MAX_PIXELS);
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
    await db
      .update(printFiles)
      .set({
        status: reasons.length ? "held" : "rendered",
        holdReasons: reasons,
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

async function hold(db: Db, id: string, reasons: string[]) {
  await db.update(printFiles).set({ status: "held", holdReasons: reasons }).where(and(eq(printFiles.id, id), eq(printFiles.status, "pending")));
}
