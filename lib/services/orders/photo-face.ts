import { and, eq } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { agencyJobs, jobFiles, photoFaces, type PhotoBox } from "@/lib/foundation/db/schema";
import { logger } from "@/lib/foundation/log/logger";
import { storage } from "@/lib/domain/storage";
import { detectFaces, isFaceEngineError, isFaceInputError } from "@/lib/engines/ml/faces";
import { planCrop } from "@/lib/services/face-crop/plan-crop";
import { PRESETS } from "@/lib/services/face-crop/presets";

/** `faces`: every face the engine kept in the photo, most prominent first (`faceBox` is the first). */
export type PhotoFace = { faceBox: PhotoBox; frame: PhotoBox; faces: PhotoBox[] } | null;

// Concurrent asks for one photo (a parent adding it to two lines, both parents at
// once) wait for the same detection instead of running the engine twice.
const running = new Map<number, Promise<PhotoFace>>();

/**
 * The most prominent face of a job photo and Face Crop's window around it for the
 * job's preset, with the boxes of all its faces, as fractions of the upright photo: read from `photo_faces`, else
 * found once by the face engine (in its worker thread) and kept. null: the photo
 * has no face the engine finds (kept too), or the engine failed this time (not
 * kept: the next ask tries again); callers then use the whole frame.
 */
export async function photoFace(db: Db, accountId: string, jobFileId: number): Promise<PhotoFace> {
  const [row] = await db.select().from(photoFaces).where(and(eq(photoFaces.jobFileId, jobFileId), eq(photoFaces.accountId, accountId)));
  if (row && !(row.faceBox && row.frame)) return null;
  // A row kept before `faces` existed: looked at once more for the other faces (its face and frame stay).
  if (row?.faceBox && row.frame && row.faces) return { faceBox: row.faceBox, frame: row.frame, faces: row.faces };
  const kept = row?.faceBox && row.frame ? { faceBox: row.faceBox, frame: row.frame, faces: [row.faceBox] } : undefined;
  const pending = running.get(jobFileId) ?? findFace(db, accountId, jobFileId, kept).finally(() => running.delete(jobFileId));
  running.set(jobFileId, pending);
  return pending;
}

/** `kept`: the row's face and frame when only `faces` is missing (they are kept, whatever the engine says now). */
async function findFace(db: Db, accountId: string, jobFileId: number, kept?: NonNullable<PhotoFace>): Promise<PhotoFace> {
  const [file] = await db
    .select({ storageKey: jobFiles.storageKey, icpType: agencyJobs.icpType })
    .from(jobFiles)
    .innerJoin(agencyJobs, eq(agencyJobs.id, jobFiles.jobId))
    .where(and(eq(jobFiles.id, jobFileId), eq(jobFiles.accountId, accountId)));
  const original = file ? await storage().get(file.storageKey) : null;
  if (!file || !original) return kept ?? null;
  let face: PhotoFace;
  try {
    const { width, height, faces } = await detectFaces(new Uint8Array(original.body));
    const best = faces[0];
    if (best) {
      const plan = planCrop(best, { width, height }, PRESETS[file.icpType]);
      const frac = (x: number, y: number, w: number, h: number): PhotoBox => ({ x: x / width, y: y / height, width: w / width, height: h / height });
      const boxes = faces.map((f) => frac(f.box.x, f.box.y, f.box.w, f.box.h));
      face = { faceBox: boxes[0]!, frame: frac(plan.centre.x - plan.w / 2, plan.centre.y - plan.h / 2, plan.w, plan.h), faces: boxes };
    } else face = null;
  } catch (err) {
    if (isFaceEngineError(err)) {
      logger().warn({ err, jobFileId }, "photo face: the face engine failed; the crop starts from the whole frame");
      return kept ?? null;
    }
    if (!isFaceInputError(err)) throw err;
    face = null;
  }
  if (kept) {
    // Only the other faces are new: the face and frame the storefront already started crops from stay.
    const faces = face ? face.faces : [kept.faceBox];
    await db.update(photoFaces).set({ faces }).where(and(eq(photoFaces.jobFileId, jobFileId), eq(photoFaces.accountId, accountId)));
    return { ...kept, faces };
  }
  await db
    .insert(photoFaces)
    .values({ jobFileId, accountId, faceBox: face?.faceBox ?? null, frame: face?.frame ?? null, faces: face?.faces ?? [] })
    .onConflictDoNothing();
  return face;
}
