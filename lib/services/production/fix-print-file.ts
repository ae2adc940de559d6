import { and, eq } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { galleries, galleryPhotos, orders, printFiles } from "@/lib/foundation/db/schema";
import { ApiError, conflict, notFound } from "@/lib/foundation/http/api-error";
import { presentPrintFiles } from "./present-batch";
import { renderPrintFiles } from "./render-print-files";
import { keptBatch, wakeHeldBatch } from "./batch-steps";
import type { FixPrintFileBody } from "./schemas";

const invalidField = (field: string, message: string) => new ApiError(400, "VALIDATION_ERROR", `Invalid body: ${field}: ${message}`, { in: "body", fields: [{ field, message }] });

/**
 * The studio's fix of a held print file from the order page: a new crop, another
 * photo of the same child, a doubtful matte released as good, or the background
 * dropped. The file goes back to pending and is rendered and checked again here
 * (its matte is cached, so this is seconds; another photo's matte is made once).
 * It may be held again, with the new reasons.
 *
 * A file whose batch already went to the lab (sent, printed, shipped) or failed
 * leaves that batch and goes into the studio's next batch of its job or day, as a
 * late print of an order: a lab treats a batch it received as a closed order (it has
 * imported its manifest, printed and invoiced it), so re-issuing the batch would
 * print every other file again or make the lab sort out which one is new. A batch
 * still rendering, ready or held (not yet sent) keeps the file: its ZIP is made on download,
 * and a held batch (every file on hold) is ready once this one renders.
 */
export async function fixPrintFile(db: Db, accountId: string, id: string, body: FixPrintFileBody, signal?: AbortSignal) {
  const [file] = await db.select().from(printFiles).where(and(eq(printFiles.id, id), eq(printFiles.accountId, accountId)));
  if (!file) throw notFound("Print file");
  if (file.status !== "held") throw conflict("PRINT_FILE_NOT_HELD", `Print file ${id} is ${file.status}: only a held file is fixed.`);
  let change: Partial<typeof printFiles.$inferInsert>;
  switch (body.action) {
    case "recrop":
      change = { crop: body.crop };
      break;
    case "photo":
      await requireSameChild(db, accountId, file.orderId, body.photo_id);
      // Another photo has its own matte: a release of the old one does not carry over.
      change = { photoId: body.photo_id, crop: body.crop ?? null, matteReleased: false };
      break;
    case "release_matte":
      if (file.holdCode !== "matte_doubtful") throw conflict("NOT_A_MATTE_HOLD", "This file is not held for its cut-out: fix its crop or photo instead.");
      change = { matteReleased: true };
      break;
    case "drop_background":
      if (!file.backgroundId) throw conflict("NO_BACKGROUND", "This file has no background to drop.");
      change = { backgroundId: null };
      break;
  }
  await db
    .update(printFiles)
    .set({ ...change, status: "pending", holdCode: null, holdReasons: [], renderedAt: null, batchId: keptBatch })
    .where(and(eq(printFiles.id, id), eq(printFiles.status, "held")));
  await renderPrintFiles(db, accountId, [id], signal);
  const [after] = await db.select().from(printFiles).where(eq(printFiles.id, id));
  if (after?.batchId && after.status === "rendered") await wakeHeldBatch(db, accountId, after.batchId);
  return (await presentPrintFiles(db, [after!]))[0]!;
}

/** The photo must be in a gallery of the order's child (another pose of the same picture day). */

async function requireSameChild(db: Db, accountId: string, orderId: string, photoId: string) {
  const [row] = await db
    .select({ id: galleryPhotos.id })
    .from(galleryPhotos)
    .innerJoin(galleries, eq(galleries.id, galleryPhotos.galleryId))
    .innerJoin(orders, and(eq(orders.id, orderId), eq(orders.accountId, accountId)))
    .where(and(eq(galleryPhotos.id, photoId), eq(galleryPhotos.accountId, accountId), eq(galleries.subjectId, orders.subjectId), eq(galleries.jobId, orders.jobId)));
  if (!row) throw invalidField("photo_id", "Not a photo of this order's child: choose one from the child's gallery.");
}
