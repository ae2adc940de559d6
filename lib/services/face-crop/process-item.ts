import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { faceCropItems, faceCropTasks } from "@/lib/foundation/db/schema";
import { config } from "@/lib/foundation/config";
import { storage } from "@/lib/domain/storage";
import { fetchSource } from "@/lib/domain/sources/fetch-source";
import { FetchFailedError, UrlNotAllowedError } from "@/lib/domain/net";
import { isFaceEngineError, isFaceInputError } from "@/lib/engines/ml/faces";
import { srMaxInputPixels, superResolve2x } from "@/lib/engines/ml/super-resolution";
import { cropFace, CropRefusedError, type FaceCropOutcome } from "./crop-face";
import type { IcpType } from "./presets";
import { outputKeys, sourceKey } from "./storage-keys";

type Task = { id: string; accountId: string; icpType: string; enhance: boolean };
export type FileError = { code: string; message: string };

/** The caller's file or URL cannot be cropped: a per-file error (refunded), never a retry. */
export function toFileError(err: unknown): FileError | null {
  if (err instanceof CropRefusedError) return { code: err.code, message: err.message };
  if (isFaceInputError(err)) return { code: err.code, message: err.message };
  if (err instanceof UrlNotAllowedError) return { code: "URL_NOT_ALLOWED", message: `The URL cannot be fetched: ${err.message}` };
  if (err instanceof FetchFailedError) return { code: "FETCH_FAILED", message: `Could not get the photo: ${err.message}` };
  return null;
}

export const ENGINE_FAILED: FileError = { code: "PROCESSING_FAILED", message: "This photo could not be cropped because of an error on our side; it was not charged. Try it again." };

/**
 * Crops one pending file and records the result (or its per-file error), and
 * counts it in the task's progress, once. A file already done is skipped, so a
 * retried job step never crops it twice. Engine failures are thrown
 * (`engineErrors: "throw"`, the job retries) or recorded as a per-file error.
 */
export async function processItem(db: Db, task: Task, itemId: string, opts: { engineErrors: "throw" | "record"; superResolution?: boolean; signal?: AbortSignal }): Promise<"completed" | "failed" | "skipped"> {
  const [item] = await db
    .select()
    .from(faceCropItems)
    .where(and(eq(faceCropItems.id, itemId), eq(faceCropItems.taskId, task.id), eq(faceCropItems.status, "pending")));
  if (!item) return "skipped";
  let outcome: FaceCropOutcome;
  let keyOfSource = item.sourceKey;
  try {
    let bytes: Buffer;
    if (item.sourceKey) {
      const object = await storage().get(item.sourceKey);
      if (!object) return recordFailure(db, task.id, item.id, { code: "SOURCE_MISSING", message: "The uploaded photo is no longer in storage; upload it again." });
      bytes = object.body;
    } else {
      const source = await fetchSource(item.sourceUrl!, { maxBytes: config().MAX_IMAGE_BYTES, signal: opts.signal });
      bytes = source.bytes;
      keyOfSource = sourceKey(task.accountId, task.id, item.id);
      await storage().put(keyOfSource, bytes, source.mime ?? "application/octet-stream");
    }
    // Super-resolution takes seconds a crop: only in the job runner, never on a request's path.
    const superResolver = opts.superResolution ? { upscale2x: superResolve2x, maxInputPixels: srMaxInputPixels() } : undefined;
    outcome = await cropFace(bytes, task.icpType as IcpType, task.enhance, superResolver);
  } catch (err) {
    if (opts.signal?.aborted) throw opts.signal.reason;
    const fileError = toFileError(err);
    if (fileError) return recordFailure(db, task.id, item.id, fileError, keyOfSource);
    if (isFaceEngineError(err) && opts.engineErrors === "record") {
      console.error(`[face-crop] engine failed on ${item.id}:`, err.cause ?? err);
      return recordFailure(db, task.id, item.id, ENGINE_FAILED, keyOfSource);
    }
    throw err;
  }
  const keys = outputKeys(task.accountId, task.id, item.id, item.version);
  await storage().put(keys.original, outcome.rendered.original, "image/jpeg");
  await storage().put(keys.medium, outcome.rendered.medium, "image/jpeg");
  const { face, plan } = outcome;
  const r = (v: number) => Math.round(v * 10) / 10;
  const pt = (p: { x: number; y: number }) => ({ x: r(p.x), y: r(p.y) });
  return db.transaction(async (tx) => {
    const done = await tx
      .update(faceCropItems)
      .set({
        status: "completed",
        sourceKey: keyOfSource,
        width: outcome.width,
        height: outcome.height,
        faceBox: face.box,
        landmarks: { left_eye: pt(face.landmarks.leftEye), right_eye: pt(face.landmarks.rightEye), chin: pt(face.landmarks.chin), crown: pt(face.landmarks.crown), crown_source: face.crownSource ?? "landmarks", landmark_model: face.landmarkModel ?? "mesh" },
        facesFound: outcome.facesFound,
        cropBox: { x: r(plan.centre.x - plan.w / 2), y: r(plan.centre.y - plan.h / 2), w: r(plan.w), h: r(plan.h), angle: r(plan.angle) },
        edge: plan.edge,
        padding: outcome.rendered.padding,
        enhancement: outcome.rendered.enhancement,
        originalKey: keys.original,
        mediumKey: keys.medium,
        outputWidth: outcome.rendered.width,
        outputHeight: outcome.rendered.height,
        completedAt: new Date(),
      })
      .where(and(eq(faceCropItems.id, item.id), eq(faceCropItems.status, "pending")))
      .returning({ id: faceCropItems.id });
    if (done.length === 0) return "skipped" as const;
    await tx.update(faceCropTasks).set({ processedFiles: sql`${faceCropTasks.processedFiles} + 1` }).where(eq(faceCropTasks.id, task.id));
    return "completed" as const;
  });
}

async function recordFailure(db: Db, taskId: string, itemId: string, error: FileError, keyOfSource?: string | null): Promise<"failed" | "skipped"> {
  return db.transaction(async (tx) => {
    const done = await tx
      .update(faceCropItems)
      .set({ status: "failed", errorCode: error.code, errorMessage: error.message, sourceKey: keyOfSource ?? null, completedAt: new Date() })
      .where(and(eq(faceCropItems.id, itemId), eq(faceCropItems.status, "pending")))
      .returning({ id: faceCropItems.id });
    if (done.length === 0) return "skipped" as const;
    await tx.update(faceCropTasks).set({ processedFiles: sql`${faceCropTasks.processedFiles} + 1` }).where(eq(faceCropTasks.id, taskId));
    return "failed" as const;
  });
}
