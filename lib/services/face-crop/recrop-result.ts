import { and, eq } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { faceCropItems, faceCropTasks } from "@/lib/foundation/db/schema";
import { ApiError, conflict, notFound } from "@/lib/foundation/http/api-error";
import { storage } from "@/lib/domain/storage";
import { recropManual } from "./crop-face";
import type { IcpType } from "./presets";
import { outputKeys } from "./storage-keys";
import { toPublicResult } from "./public-task";

/**
 * A crop window drawn by hand on a cropped file (free: the file was paid for).
 * The new render gets new keys (the version goes up); the old files are deleted.
 */
export async function recropResult(db: Db, accountId: string, resultId: string, box: { x: number; y: number; w: number; h: number }) {
  const [row] = await db
    .select({ item: faceCropItems, task: faceCropTasks })
    .from(faceCropItems)
    .innerJoin(faceCropTasks, eq(faceCropTasks.id, faceCropItems.taskId))
    .where(and(eq(faceCropItems.id, resultId), eq(faceCropItems.accountId, accountId)));
  if (!row) throw notFound("Face crop result");
  const { item, task } = row;
  if (item.status !== "completed" || !item.sourceKey || !item.width || !item.height) throw conflict("NOT_CROPPED", "Only a photo that was cropped can be re-cropped by hand.");
  if (box.x + box.w > item.width + 0.5 || box.y + box.h > item.height + 0.5) {
    throw new ApiError(400, "VALIDATION_ERROR", `crop_box must lie inside the photo (${item.width} × ${item.height} upright pixels).`, { in: "body", fields: [{ field: "crop_box", message: "Outside the photo." }] });
  }
  const source = await storage().get(item.sourceKey);
  if (!source) throw conflict("SOURCE_MISSING", "The source photo is no longer stored; crop it again from the original.");
  const { plan, rendered } = await recropManual(source.body, { width: item.width, height: item.height }, box, task.icpType as IcpType, task.enhance);
  const version = item.version + 1;
  const keys = outputKeys(accountId, task.id, item.id, version);
  await storage().put(keys.original, rendered.original, "image/jpeg");
  await storage().put(keys.medium, rendered.medium, "image/jpeg");
  const r = (v: number) => Math.round(v * 10) / 10;
  const [updated] = await db
    .update(faceCropItems)
    .set({
      version,
      manual: true,
      cropBox: { x: r(plan.centre.x - plan.w / 2), y: r(plan.centre.y - plan.h / 2), w: r(plan.w), h: r(plan.h), angle: 0 },
      edge: plan.edge,
      padding: rendered.padding,
      enhancement: rendered.enhancement,
      originalKey: keys.original,
      mediumKey: keys.medium,
      outputWidth: rendered.width,
      outputHeight: rendered.height,
    })
    .where(and(eq(faceCropItems.id, item.id), eq(faceCropItems.version, item.version)))
    .returning();
  if (!updated) throw conflict("CONCURRENT_RECROP", "This crop was changed at the same time; reload and try again.");
  await Promise.all([item.originalKey, item.mediumKey].map((k) => (k ? storage().delete(k).catch(() => {}) : undefined)));
  return toPublicResult(task, updated);
}
