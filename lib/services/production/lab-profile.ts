import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { eq } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { productionSettings } from "@/lib/foundation/db/schema";
import { ApiError, notFound } from "@/lib/foundation/http/api-error";
import { storage } from "@/lib/domain/storage";
import { readIccProfile } from "@/lib/engines/imaging/icc-profile";
import { logger } from "@/lib/foundation/log/logger";
import { MAX_LAB_PROFILE_BYTES } from "./values";
import { releaseProfileHolds } from "./batch-steps";

// The studio's lab colour profile: print files are converted from sRGB into it (lcms2,
// through libvips) and carry it, so the lab prints the colours the parent saw. Without
// one, files are sRGB with sRGB embedded. JPEG labs print RGB: only an RGB output
// (printer) or display profile is accepted.

const bad = (message: string) => new ApiError(400, "INVALID_ICC_PROFILE", `file: ${message}`, { fields: [{ field: "file", message }] });
const sigAt = (b: Buffer, at: number) => b.toString("latin1", at, at + 4);

/** Checks an ICC profile's header and tag table; a file that is not one, or not an RGB output/display profile, is a 400 naming `file`. */
export function checkLabProfile(bytes: Buffer): { description: string | null; deviceClass: string; version: number } {
  if (bytes.length < 132 || sigAt(bytes, 36) !== "acsp") throw bad("not an ICC profile (no 'acsp' signature in its header).");
  if (bytes.readUInt32BE(0) !== bytes.length) throw bad(`the profile's header says ${bytes.readUInt32BE(0)} bytes but the file has ${bytes.length}: it is cut or padded.`);
  const deviceClass = sigAt(bytes, 12);
  if (deviceClass !== "prtr" && deviceClass !== "mntr") throw bad(`a '${deviceClass.trim()}' profile: a lab's profile is an output (prtr) or display (mntr) profile.`);
  const space = sigAt(bytes, 16);
  if (space !== "RGB ") throw bad(`the profile's colour space is ${space.trim()}: print files are RGB JPEGs, so the lab's profile must be an RGB one.`);
  const pcs = sigAt(bytes, 20);
  if (pcs !== "XYZ " && pcs !== "Lab ") throw bad(`the profile's connection space '${pcs.trim()}' is neither XYZ nor Lab.`);
  const version = bytes[8]!;
  if (version < 2 || version > 4) throw bad(`ICC version ${version} is not one a colour engine reads (2 or 4).`);
  const count = bytes.readUInt32BE(128);
  if (count === 0 || 132 + 12 * count > bytes.length) throw bad("the profile's tag table is empty or runs past its end.");
  for (let i = 0; i < count; i++) {
    const at = 132 + 12 * i;
    const offset = bytes.readUInt32BE(at + 4);
    const size = bytes.readUInt32BE(at + 8);
    if (offset < 128 || offset + size > bytes.length) throw bad(`the profile's '${sigAt(bytes, at)}' tag lies outside the file.`);
  }
  return { description: readIccProfile(bytes)?.description ?? null, deviceClass, version };
}

/** The profile as a file the colour engine opens (libvips takes a path), written once per content under the temp folder. */
async function profileFile(bytes: Buffer): Promise<string> {
  const dir = path.join(os.tmpdir(), "lab-profiles");
  const file = path.join(dir, `${crypto.createHash("sha256").update(bytes).digest("hex")}.icc`);
  if (!fs.existsSync(file)) {
    await fs.promises.mkdir(dir, { recursive: true });
    const tmp = `${file}.${process.pid}.${crypto.randomUUID()}`;
    await fs.promises.writeFile(tmp, bytes);
    await fs.promises.rename(tmp, file);
  }
  return file;
}

/** The colour engine opens the profile and converts a pixel into it; lcms2 refusing it (libvips then drops it with a warning) is a 400. */
async function checkWithEngine(file: string) {
  const warnings: string[] = [];
  const pipeline = sharp({ create: { width: 2, height: 2, channels: 3, background: { r: 200, g: 120, b: 60 } } });
  pipeline.on("warning", (w: string) => warnings.push(w));
  const out = await pipeline.withIccProfile(file).jpeg().toBuffer().catch(() => null);
  const attached = out ? (await sharp(out).metadata()).icc : undefined;
  if (!attached || warnings.some((w) => /invalid profile|unable to/i.test(w))) throw bad(`the colour engine could not read the profile${warnings.length ? ` (${warnings.join("; ")})` : ""}.`);
}

export type LabProfile = { description: string; bytes: number; uploaded_at: string } | null;

export async function labProfile(db: Db, accountId: string): Promise<LabProfile> {
  const [row] = await db.select().from(productionSettings).where(eq(productionSettings.accountId, accountId));
  return row?.labProfileKey ? { description: row.labProfileDescription ?? "", bytes: row.labProfileBytes ?? 0, uploaded_at: row.labProfileUploadedAt!.toISOString() } : null;
}

/** Keeps an uploaded profile (multipart part `file`) as the studio's lab profile, replacing the one before; prints held because it was missing render again. */
export async function saveLabProfile(db: Db, accountId: string, form: FormData): Promise<{ lab_profile: LabProfile }> {
  const part = form.get("file");
  if (!(part instanceof File)) throw new ApiError(400, "VALIDATION_ERROR", "Send the profile in a multipart part named `file`.", { fields: [{ field: "file", message: "Required." }] });
  if (part.size > MAX_LAB_PROFILE_BYTES) throw new ApiError(413, "PAYLOAD_TOO_LARGE", `file: a lab profile is at most ${MAX_LAB_PROFILE_BYTES / 1024 / 1024} MB.`, { field: "file", max_bytes: MAX_LAB_PROFILE_BYTES });
  const bytes = Buffer.from(await part.arrayBuffer());
  const info = checkLabProfile(bytes);
  await checkWithEngine(await profileFile(bytes));
  const name = (info.description ?? part.name.replace(/\.(icc|icm)$/i, "")).slice(0, 200) || "Lab profile";
  const key = `studio/${accountId}/lab-profile/${crypto.createHash("sha256").update(bytes).digest("hex")}.icc`;
  await storage().put(key, bytes, "application/vnd.iccprofile");
  const [before] = await db.select({ key: productionSettings.labProfileKey }).from(productionSettings).where(eq(productionSettings.accountId, accountId));
  const values = { labProfileKey: key, labProfileDescription: name, labProfileBytes: bytes.length, labProfileUploadedAt: new Date(), updatedAt: new Date() };
  await db.insert(productionSettings).values({ accountId, ...values }).onConflictDoUpdate({ target: productionSettings.accountId, set: values });
  if (before?.key && before.key !== key) await storage().delete(before.key);
  await releaseProfileHolds(db, accountId);
  return { lab_profile: await labProfile(db, accountId) };
}

/** Back to sRGB: the studio's lab profile forgotten (files already rendered keep theirs); 404 when there is none. */
export async function deleteLabProfile(db: Db, accountId: string): Promise<{ lab_profile: LabProfile }> {
  const [before] = await db.select({ key: productionSettings.labProfileKey }).from(productionSettings).where(eq(productionSettings.accountId, accountId));
  if (!before?.key) throw notFound("Lab profile");
  await db.update(productionSettings).set({ labProfileKey: null, labProfileDescription: null, labProfileBytes: null, labProfileUploadedAt: null, updatedAt: new Date() }).where(eq(productionSettings.accountId, accountId));
  await storage().delete(before.key);
  // Forgetting it is choosing sRGB: prints held for its absence render so.
  await releaseProfileHolds(db, accountId);
  return { lab_profile: null };
}

/**
 * The studio's lab profile for rendering: its path, none (sRGB), or `missing` (its name) when
 * the stored file is gone (storage restored from an older copy, a lost volume). The caller
 * holds the prints then: sRGB files would print in the wrong colours at a lab that expects
 * its own profile.
 */
export async function labProfileForRender(db: Db, accountId: string): Promise<{ path: string | null; missing: string | null }> {
  const [row] = await db.select({ key: productionSettings.labProfileKey, description: productionSettings.labProfileDescription }).from(productionSettings).where(eq(productionSettings.accountId, accountId));
  if (!row?.key) return { path: null, missing: null };
  const stored = await storage().get(row.key);
  if (!stored) {
    logger().warn({ accountId, key: row.key }, "lab profile: the stored profile is missing; its prints are held");
    return { path: null, missing: row.description || "Lab profile" };
  }
  return { path: await profileFile(stored.body), missing: null };
}
