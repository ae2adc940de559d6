import { and, asc, eq, isNotNull } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { galleries, galleryPhotos, jobFiles, orderItems, orders, printFiles } from "@/lib/foundation/db/schema";
import { notFound } from "@/lib/foundation/http/api-error";
import { originalSize } from "@/lib/services/galleries/parent-photos";
import { signPreviewUrl } from "@/lib/services/galleries/preview-urls";
import { presentPrintFiles } from "./present-batch";
import { printedCrop, startCrop } from "./print-crop";

/**
 * GET /v1/production/print-files/{id}: the file, and what the order page's fix works
 * with: the photo and crop it prints now, the print's trim size, and every photo of the
 * order's child in the job whose preview is ready (signed preview URLs, the preview's
 * size and the original's upright size, as the storefront's crop editor takes them).
 */
export async function printFileChoices(db: Db, accountId: string, id: string) {
  const [row] = await db
    .select({ file: printFiles, line: { photoId: orderItems.photoId, crop: orderItems.crop }, order: { subjectId: orders.subjectId, jobId: orders.jobId } })
    .from(printFiles)
    .innerJoin(orderItems, eq(orderItems.id, printFiles.orderItemId))
    .innerJoin(orders, eq(orders.id, printFiles.orderId))
    .where(and(eq(printFiles.id, id), eq(printFiles.accountId, accountId)));
  if (!row) throw notFound("Print file");
  const { file, line, order } = row;
  const photos =
    order.subjectId && order.jobId
      ? await db
          .select({ id: galleryPhotos.id, jobFileId: galleryPhotos.jobFileId, previewWidth: galleryPhotos.previewWidth, previewHeight: galleryPhotos.previewHeight, fileWidth: jobFiles.width, fileHeight: jobFiles.height })
          .from(galleryPhotos)
          .innerJoin(galleries, eq(galleries.id, galleryPhotos.galleryId))
          .innerJoin(jobFiles, eq(jobFiles.id, galleryPhotos.jobFileId))
          .where(and(eq(galleryPhotos.accountId, accountId), eq(galleries.subjectId, order.subjectId), eq(galleries.jobId, order.jobId), isNotNull(galleryPhotos.previewWidth)))
          .orderBy(asc(galleryPhotos.position), asc(galleryPhotos.id))
      : [];
  const subjectId = order.subjectId;
  const photoId = file.photoId ?? line.photoId;
  const printed = photos.find((p) => p.id === photoId);
  const size = printed && originalSize(printed);
  // Where no crop was drawn (a package's print), the box the render starts from, so the editor opens on what prints.
  const crop = printedCrop(file, line.crop) ?? (printed && size?.original_width && size.original_height ? await startCrop(db, accountId, printed.jobFileId, { width: size.original_width, height: size.original_height }, file) : null);
  return {
    ...(await presentPrintFiles(db, [file]))[0]!,
    fix: {
      photo_id: photoId,
      crop,
      size: { width_in: file.widthIn, height_in: file.heightIn },
      photos: photos.map((p) => ({ id: p.id, preview_url: signPreviewUrl(p.id, subjectId!), width: p.previewWidth!, height: p.previewHeight!, ...originalSize(p) })),
    },
  };
}
