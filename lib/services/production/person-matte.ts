import sharp from "sharp";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { photoMattes } from "@/lib/foundation/db/schema";
import { newId } from "@/lib/foundation/ids";
import { storage } from "@/lib/domain/storage";
import type { CutoutQuality } from "@/lib/engines/ml/background-removal";
import { bgRemovalProvider } from "@/lib/services/bg-remove/provider";
import { OLD_TOP_EDGE_DOUBT } from "./head-cut";

export type PhotoMatte = { id: string; matte: Buffer; width: number; height: number; doubts: string[] };

/** A print's edge: a little softness so hair blends into the new backdrop, not a cut. */
const EDGE_SOFTNESS = 2;

export type MatteScale = "full" | "preview";

export const matteKey = (accountId: string, jobFileId: number, scale: MatteScale) => `production/${accountId}/mattes/${jobFileId}-${scale}.png`;

// In one process, asks for the same photo and scale (a parent trying backgrounds while
// the first cut-out runs) wait for the one engine run instead of starting another.
const running = new Map<string, Promise<PhotoMatte>>();

/**
 * The person matte of one job photo, upright, at the size of `image`: the original
 * (`full`, for prints) or its preview-size copy (`preview`, for the storefront's
 * composite). Read from its stored file when made before, else made once by the
 * background-removal engine and kept (its row names the file). Two processes racing
 * on the same photo both compute; the first row written wins and both use its file.
 */
export async function photoMatte(db: Db, accountId: string, jobFileId: number, image: Buffer, signal?: AbortSignal, scale: MatteScale = "full"): Promise<PhotoMatte> {
  const cached = await storedMatte(db, accountId, jobFileId, scale);
  if (cached) return cached;
  const key = `${jobFileId}-${scale}`;
  const pending = running.get(key) ?? makeMatte(db, accountId, jobFileId, image, scale, signal).finally(() => running.delete(key));
  running.set(key, pending);
  return pending;
}

async function makeMatte(db: Db, accountId: string, jobFileId: number, image: Buffer, scale: MatteScale, signal?: AbortSignal): Promise<PhotoMatte> {
  const result = await bgRemovalProvider().removeBackground(image, { subjectType: "person", edgeSoftness: EDGE_SOFTNESS, highDetail: true, background: "transparent" }, signal);
  const matte = await sharp(result.png).extractChannel(3).png().toBuffer();
  // Only the engine's own doubts: a head cut by the top edge depends on the print's crop (head-cut.ts, per print).
  const doubts = engineDoubts(result.quality);
  const key = matteKey(accountId, jobFileId, scale);
  await storage().put(key, matte, "image/png");
  const [row] = await db
    .insert(photoMattes)
    .values({ id: newId("mat"), accountId, jobFileId, scale, storageKey: key, width: result.width, height: result.height, doubts })
    .onConflictDoNothing()
    .returning();
  // Written first: the matte in hand is the stored one (no read back). A racing twin wrote first: use its row.
  return row ? { id: row.id, matte, width: row.width, height: row.height, doubts: row.doubts } : (await storedMatte(db, accountId, jobFileId, scale))!;
}

export async function storedMatte(db: Db, accountId: string, jobFileId: number, scale: MatteScale): Promise<PhotoMatte | null> {
  const [row] = await db.select().from(photoMattes).where(and(eq(photoMattes.accountId, accountId), eq(photoMattes.jobFileId, jobFileId), eq(photoMattes.scale, scale)));
  if (!row) return null;
  const file = await storage().get(row.storageKey);
  if (!file) {
    // Its file lost (storage restored from an older copy): make it again.
    await db.delete(photoMattes).where(eq(photoMattes.id, row.id));
    return null;
  }
  // A row made before the top-edge rule moved to each print's crop may still carry its sentence: dropped here.
  return { id: row.id, matte: file.body, width: row.width, height: row.height, doubts: row.doubts.filter((d) => !d.startsWith(OLD_TOP_EDGE_DOUBT)) };
}

/** The engine's own doubt, in the studio's words. */
function engineDoubts(q: CutoutQuality): string[] {
  const doubts: string[] = [];
  if (q.peopleKept === 0) doubts.push("The cut-out found no person in this photo.");
  else if (q.peopleKept !== null && q.peopleKept > 1) doubts.push(`The cut-out kept ${q.peopleKept} people: someone beside the child may be printed on the background.`);
  if (q.doubtfulRegions.length > 0) {
    const biggest = q.doubtfulRegions[0]!;
    doubts.push(`The cut-out is unsure in ${q.doubtfulRegions.length} region(s) of the photo (the largest at ${biggest.left},${biggest.top}, ${biggest.width} x ${biggest.height} px: ${biggest.reason.replaceAll("_", " ")}).`);
  }
  return doubts;
}
