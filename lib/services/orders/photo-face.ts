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

/**
 * A group photo's other faces count when at least this wide against its largest face: a
 * child in the back row is kept, a passer-by's face far behind is not (the engine keeps
 * faces down to a few per cent of the photo). Production's face check keeps the same faces.
 */
export const GROUP_FACE_MIN_WIDTH = 0.4;

/** The faces a print must keep: the main face and each other one at least GROUP_FACE_MIN_WIDTH of the largest's width that the photo itself does not cut. */
export function groupFaces(faces: PhotoBox[]): PhotoBox[] {
  const largest = Math.max(...faces.map((f) => f.width));
  const edge = 0.002;
  const cutByPhoto = (f: PhotoBox) => f.x <= edge || f.y <= edge || f.x + f.width >= 1 - edge || f.y + f.height >= 1 - edge;
  return faces.filter((f, i) => i === 0 || (f.width >= GROUP_FACE_MIN_WIDTH * largest && !cutByPhoto(f)));
}

/**
 * Prints are at least this much longer than wide (8 x 10; a square print is rarer): a group's
 * frame is made tall enough that the print's crop, which starts from the frame's height, is wide
 * enough for every face.
 */
const SQUAREST_PRINT = 1.25;

/**
 * The frame a group photo's crop starts from (fractions): every face the print must keep, with
 * room around them (half a face each side, most of a head above for the hair, shoulders below),
 * its height raised so that a print as square as an 8 x 10 in the photo's orientation is as wide
 * as the group. null for one face: Face Crop's window around it is the frame.
 */
export function groupFrame(faces: PhotoBox[], photo: { width: number; height: number }): PhotoBox | null {
  const group = groupFaces(faces);
  if (group.length < 2) return null;
  const px = group.map((f) => ({ x: f.x * photo.width, y: f.y * photo.height, w: f.width * photo.width, h: f.height * photo.height }));
  const median = (v: number[]) => v.sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
  const fw = median(px.map((f) => f.w));
  const fh = median(px.map((f) => f.h));
  const left = Math.min(...px.map((f) => f.x)) - 0.5 * fw;
  const right = Math.max(...px.map((f) => f.x + f.w)) + 0.5 * fw;
  const top = Math.min(...px.map((f) => f.y)) - 0.8 * fh;
  const bottom = Math.max(...px.map((f) => f.y + f.h)) + 1.2 * fh;
  // The narrowest print in the photo's orientation: landscape 1.25 wide per high, portrait 0.8.
  const aspect = photo.width >= photo.height ? SQUAREST_PRINT : 1 / SQUAREST_PRINT;
  const height = Math.max(bottom - top, (right - left) / aspect);
  const width = Math.max(right - left, height * aspect);
  const cx = (left + right) / 2;
  const cy = (top + bottom) / 2;
  return { x: (cx - width / 2) / photo.width, y: (cy - height / 2) / photo.height, width: width / photo.width, height: height / photo.height };
}

// Concurrent asks for one photo (a parent adding it to two lines, both parents at
// once) wait for the same detection instead of running the engine twice.
const running = new Map<number, Promise<PhotoFace>>();

/**
 * The most prominent face of a job photo and Face Crop's window around it for the
 * job's preset (a group photo's: the frame around every face a print keeps, groupFrame),
 * with the boxes of all its faces, as fractions of the upright photo: read from `photo_faces`, else
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
      const frame = groupFrame(boxes, { width, height }) ?? frac(plan.centre.x - plan.w / 2, plan.centre.y - plan.h / 2, plan.w, plan.h);
      face = { faceBox: boxes[0]!, frame, faces: boxes };
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
