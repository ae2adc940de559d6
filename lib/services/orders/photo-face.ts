import { and, eq } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { agencyJobs, jobFiles, photoFaces, type PhotoBox } from "@/lib/foundation/db/schema";
import { logger } from "@/lib/foundation/log/logger";
import { storage } from "@/lib/domain/storage";
import { detectFaces, isFaceEngineError, isFaceInputError } from "@/lib/engines/ml/faces";
import { planCrop } from "@/lib/services/face-crop/plan-crop";
import { PRESETS } from "@/lib/services/face-crop/presets";

export type PhotoFace = { faceBox: PhotoBox; frame: PhotoBox } | null;

// Concurrent asks for one photo (a parent adding it to two lines, both parents at
// once) wait for the same detection instead of running the engine twice.
const running = new Map<number, Promise<PhotoFace>>();

/**
 * The most prominent face of a job photo and Face Crop's window around it for the
 * job's preset, as fractions of the upright photo: read from `photo_faces`, else
 * found once by the face engine (in its worker thread) and kept. null: the photo
 * has no face the engine finds (kept too), or the engine failed this time (not
 * kept: the next ask tries again); callers then use the whole frame.
 */
export async function photoFace(db: Db, accountId: string, jobFileId: number): Promise<PhotoFace> {
  const [row] = await db.select().from(photoFaces).where(and(eq(photoFaces.jobFileId, jobFileId), eq(photoFaces.accountId, accountId)));
  if (row) return row.faceBox && row.frame ? { faceBox: row.faceBox, frame: row.frame } : null;
  const pending = running.get(jobFileId) ?? findFace(db, accountId, jobFileId).finally(() => running.delete(jobFileId));
  running.set(jobFileId, pending);
  return pending;
}

async function findFace(db: Db, accountId: string, jobFileId: number): Promise<PhotoFace> {
  const [file] = await db
    .select({ storageKey: jobFiles.storageKey, icpType: agencyJobs.icpType })
    .from(jobFiles)
    .innerJoin(agencyJobs, eq(agencyJobs.id, jobFiles.jobId))
    .where(and(eq(jobFiles.id, jobFileId), eq(jobFiles.accountId, accountId)));
  const original = file ? await storage().get(file.storageKey) : null;
  if (!file || !original) return null;
  let face: PhotoFace;
  try {
    const { width, height, faces } = await detectFaces(new Uint8Array(original.body));
    const best = faces[0];
    if (best) {
      const plan = planCrop(best, { width, height }, PRESETS[file.icpType]);
      const frac = (x: number, y: number, w: number, h: number): PhotoBox => ({ x: x / width, y: y / height, width: w / width, height: h / height });
      face = { faceBox: frac(best.box.x, best.box.y, best.box.w, best.box.h), frame: frac(plan.centre.x - plan.w / 2, plan.centre.y - plan.h / 2, plan.w, plan.h) };
    } else face = null;
  } catch (err) {
    if (isFaceEngineError(err)) {
      logger().warn({ err, jobFileId }, "photo face: the face engine failed; the crop starts from the whole frame");
      return null;
    }
    if (!isFaceInputError(err)) throw err;
    face = null;
  }
  await db
    .insert(photoFaces)
    .values({ jobFileId, accountId, faceBox: face?.faceBox ?? null, frame: face?.frame ?? null })
    .onConflictDoNothing();
  return face;
}
