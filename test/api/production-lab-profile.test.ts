import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import * as batchesRoute from "@/app/v1/production/batches/route";
import * as settingsRoute from "@/app/v1/production/settings/route";
import * as labProfileRoute from "@/app/v1/production/settings/lab-profile/route";
import { getDb } from "@/lib/foundation/db/client";
import { jobRuns, labBatches, printFiles, productionSettings } from "@/lib/foundation/db/schema";
import { storage } from "@/lib/domain/storage";
import { shutDownFaces } from "@/lib/engines/ml/faces";
import { readIccProfile } from "@/lib/engines/imaging/icc-profile";
import { filesToRender, finishBatch } from "@/lib/services/production/batch-steps";
import { renderPrintFiles } from "@/lib/services/production/render-print-files";
import { MAX_LAB_PROFILE_BYTES } from "@/lib/services/production/values";
import { call, testAccount } from "../http";
import { buildRgbProfile } from "../support/icc-profile";
import { childWithPhotos } from "../support/parent-photos";
import { productionStudio } from "../support/production-fixtures";

// The studio's lab colour profile through its routes, and real print files rendered with it:
// lcms2 (in libvips) converts the sRGB render into the profile and the file carries it. The
// profile is built here (test/support/icc-profile.ts): sRGB's primaries with a gamma of 1.0,
// so converting into it must lower a mid-grey from sRGB's 128 to linear light's 55.

afterAll(() => shutDownFaces());

const FOUR_BY_FIVE = { key: "45", width_in: 4, height_in: 5, bleed_mm: 0, min_ppi: 100, color_mode: "rgb" as const };
const LINEAR = buildRgbProfile({ description: "Oak Lab linear RGB (test)" });

function upload(token: string, bytes: Buffer, filename = "lab.icc") {
  const form = new FormData();
  form.append("file", new File([new Uint8Array(bytes)], filename, { type: "application/vnd.iccprofile" }));
  return call(labProfileRoute, "PUT", "/v1/production/settings/lab-profile", { token, rawBody: form });
}
/** The pixels as stored in the file (no conversion from its profile), and the description of the profile it carries. */
async function storedFile(key: string) {
  const jpeg = (await storage().get(key))!.body;
  const { icc } = await sharp(jpeg).metadata();
  const { data } = await sharp(jpeg).keepIccProfile().raw().toBuffer({ resolveWithObject: true });
  let sum = 0;
  for (const v of data) sum += v;
  return { description: icc ? (readIccProfile(icc)?.description ?? null) : null, mean: sum / data.length };
}

describe("the studio's lab colour profile", () => {
  it("refuses what is not an RGB output or display profile (400 naming `file`), and a too-large file (413)", async () => {
    const { token } = await testAccount();
    const refused = async (bytes: Buffer, pattern: RegExp) => {
      const res = await upload(token, bytes);
      expect(res.status, res.text).toBe(400);
      expect(res.json.details.fields[0].field).toBe("file");
      expect(res.json.message).toMatch(pattern);
    };
    await refused(Buffer.from("%PDF-1.4 not a profile at all, but long enough to have a header of 128 bytes ........................................................................"), /not an ICC profile/);
    await refused(buildRgbProfile({ description: "Press", colourSpace: "CMYK" }), /colour space is CMYK/);
    await refused(buildRgbProfile({ description: "Abstract", deviceClass: "abst" }), /output \(prtr\) or display/);
    await refused(LINEAR.subarray(0, LINEAR.length - 40), /cut or padded/);
    // A header that reads well over tags that do not: the colour engine refuses it.
    const garbled = Buffer.from(LINEAR);
    const tableEnd = 132 + 12 * garbled.readUInt32BE(128);
    garbled.fill(0x5a, tableEnd);
    await refused(garbled, /colour engine could not read/);
    const big = Buffer.alloc(MAX_LAB_PROFILE_BYTES + 1);
    const tooBig = await upload(token, big);
    expect([tooBig.status, tooBig.json.details.field]).toEqual([413, "file"]);
    expect((await call(settingsRoute, "GET", "/v1/production/settings", { token })).json.lab_profile).toBeNull();
  });

  it("converts print files into the uploaded profile and embeds it; without one they stay sRGB; removing it goes back to sRGB", async () => {
    const owner = await testAccount();
    const shop = await productionStudio(owner.token, owner.account.id, [FOUR_BY_FIVE]);
    const grey = await sharp({ create: { width: 800, height: 1000, channels: 3, background: { r: 128, g: 128, b: 128 } } }).jpeg({ quality: 95 }).toBuffer();
    const kid = await childWithPhotos(owner.account.id, shop.studio.agencyId, shop.studio.jobId, [grey]);
    const child = { photoId: kid.photoIds[0]!, subjectId: kid.subjectId };
    const db = await getDb();
    const renderBatch = async () => {
      const batch = await call(batchesRoute, "POST", "/v1/production/batches", { token: owner.token, body: { shipping: "direct", job_id: Number(shop.studio.jobId) } });
      expect(batch.status, batch.text).toBe(202);
      const ids = await filesToRender(db, owner.account.id, batch.json.id);
      expect(ids).toHaveLength(1);
      await renderPrintFiles(db, owner.account.id, ids);
      const [file] = await db.select().from(printFiles).where(eq(printFiles.id, ids[0]!));
      expect(file!.status).toBe("rendered");
      return { ...(await storedFile(file!.fileKey!)), thumb: await storedFile(file!.thumbKey!) };
    };

    await shop.paidOrder(child, false, [{ ref: "i45", quantity: 1 }]);
    const plain = await renderBatch();
    expect(plain.description).toMatch(/sRGB/);
    expect(Math.abs(plain.mean - 128)).toBeLessThan(2);

    const set = await upload(owner.token, LINEAR);
    expect(set.status, set.text).toBe(200);
    expect(set.json.lab_profile).toMatchObject({ description: "Oak Lab linear RGB (test)", bytes: LINEAR.length });
    const settings = await call(settingsRoute, "GET", "/v1/production/settings", { token: owner.token });
    expect(settings.json).toMatchObject({ manifest_columns: expect.any(Object), lab_profile: { description: "Oak Lab linear RGB (test)" } });

    await shop.paidOrder(child, false, [{ ref: "i45", quantity: 1 }]);
    const lab = await renderBatch();
    expect(lab.description).toBe("Oak Lab linear RGB (test)");
    // sRGB 128 in linear light: ((128/255 + 0.055) / 1.055)^2.4 x 255 = 55.0.
    expect(lab.mean).toBeLessThan(plain.mean - 60);
    expect(Math.abs(lab.mean - 55)).toBeLessThan(3);
    // The studio's thumbnail of it is sRGB again (the file's colours as they look), not the lab's raw values.
    expect(lab.thumb.description ?? "sRGB").toMatch(/sRGB/);
    expect(Math.abs(lab.thumb.mean - 128)).toBeLessThan(3);

    const [row] = await db.select().from(productionSettings).where(eq(productionSettings.accountId, owner.account.id));
    const gone = await call(labProfileRoute, "DELETE", "/v1/production/settings/lab-profile", { token: owner.token });
    expect([gone.status, gone.json]).toEqual([200, { lab_profile: null }]);
    expect(await storage().get(row!.labProfileKey!)).toBeNull();
    expect((await call(labProfileRoute, "DELETE", "/v1/production/settings/lab-profile", { token: owner.token })).status).toBe(404);
    await shop.paidOrder(child, false, [{ ref: "i45", quantity: 1 }]);
    const again = await renderBatch();
    expect(again.description).toMatch(/sRGB/);
    expect(Math.abs(again.mean - 128)).toBeLessThan(2);
  }, 240_000);

  it("renders a press product's print in CMYK through the press profile and a grayscale product's in one grey channel: what each product requires, so neither is held", async () => {
    const owner = await testAccount();
    const press = { ...FOUR_BY_FIVE, key: "press", color_mode: "cmyk" as const };
    const grey = { ...FOUR_BY_FIVE, key: "grey", color_mode: "grayscale" as const };
    const shop = await productionStudio(owner.token, owner.account.id, [press, grey]);
    const photo = await sharp({ create: { width: 800, height: 1000, channels: 3, background: { r: 200, g: 60, b: 40 } } }).jpeg({ quality: 95 }).toBuffer();
    const kid = await childWithPhotos(owner.account.id, shop.studio.agencyId, shop.studio.jobId, [photo]);
    const db = await getDb();
    // The lab's RGB profile does not apply to a press product.
    expect((await upload(owner.token, LINEAR)).status).toBe(200);
    await shop.paidOrder({ photoId: kid.photoIds[0]!, subjectId: kid.subjectId }, false, [{ ref: "ipress", quantity: 1 }, { ref: "igrey", quantity: 1 }]);
    const batch = await call(batchesRoute, "POST", "/v1/production/batches", { token: owner.token, body: { shipping: "direct", job_id: Number(shop.studio.jobId) } });
    expect(batch.status, batch.text).toBe(202);
    const ids = await filesToRender(db, owner.account.id, batch.json.id);
    await renderPrintFiles(db, owner.account.id, ids);
    const files = await db.select().from(printFiles).where(eq(printFiles.batchId, batch.json.id));
    expect(files.map((f) => [f.status, f.holdReasons])).toEqual([["rendered", []], ["rendered", []]]);
    const meta = async (sku: string) => sharp((await storage().get(files.find((f) => f.productSku.startsWith(sku))!.fileKey!))!.body).metadata();
    const cmyk = await meta("PR-press");
    expect([cmyk.space, cmyk.channels, cmyk.density]).toEqual(["cmyk", 4, 300]);
    expect(readIccProfile(cmyk.icc!)?.description).toMatch(/FOGRA39L/);
    const gray = await meta("PR-grey");
    expect([gray.space, gray.channels, gray.density, gray.icc]).toEqual(["b-w", 1, 300, undefined]);
  }, 240_000);

  it("holds the prints while the stored profile is missing (not sRGB), and renders them into it once it is uploaded again", async () => {
    const owner = await testAccount();
    const shop = await productionStudio(owner.token, owner.account.id, [FOUR_BY_FIVE]);
    const grey = await sharp({ create: { width: 800, height: 1000, channels: 3, background: { r: 128, g: 128, b: 128 } } }).jpeg({ quality: 95 }).toBuffer();
    const kid = await childWithPhotos(owner.account.id, shop.studio.agencyId, shop.studio.jobId, [grey]);
    const db = await getDb();
    expect((await upload(owner.token, LINEAR)).status).toBe(200);
    // The stored profile is lost (storage restored from an older copy).
    const [settings] = await db.select().from(productionSettings).where(eq(productionSettings.accountId, owner.account.id));
    await storage().delete(settings!.labProfileKey!);

    await shop.paidOrder({ photoId: kid.photoIds[0]!, subjectId: kid.subjectId }, false, [{ ref: "i45", quantity: 1 }]);
    const batch = await call(batchesRoute, "POST", "/v1/production/batches", { token: owner.token, body: { shipping: "direct", job_id: Number(shop.studio.jobId) } });
    expect(batch.status, batch.text).toBe(202);
    const batchId = batch.json.id as string;
    const [fileId] = await filesToRender(db, owner.account.id, batchId);
    await renderPrintFiles(db, owner.account.id, [fileId!]);
    const fileRow = async () => (await db.select().from(printFiles).where(eq(printFiles.id, fileId!)))[0]!;
    const held = await fileRow();
    expect(held).toMatchObject({ status: "held", holdCode: "lab_profile_missing", fileKey: null });
    expect(held.holdReasons.join(" ")).toMatch(/"Oak Lab linear RGB \(test\)" is missing from storage: upload it again/);
    expect(await finishBatch(db, owner.account.id, batchId)).toBe("held");

    // Uploaded again: the print is pending in its batch, which renders again (its job queued).
    expect((await upload(owner.token, LINEAR)).status).toBe(200);
    expect(await fileRow()).toMatchObject({ status: "pending", holdCode: null, holdReasons: [], batchId });
    expect((await db.select().from(labBatches).where(eq(labBatches.id, batchId)))[0]!.status).toBe("rendering");
    const runs = await db.select().from(jobRuns).where(eq(jobRuns.functionId, "production-batch"));
    expect(runs.filter((r) => JSON.stringify(r.eventData).includes(batchId))).toHaveLength(2);
    // The job's own steps: the file is rendered into the lab's profile, the batch ready.
    await renderPrintFiles(db, owner.account.id, await filesToRender(db, owner.account.id, batchId));
    expect(await finishBatch(db, owner.account.id, batchId)).toBe("ready");
    const rendered = await fileRow();
    expect(rendered.status).toBe("rendered");
    const lab = await storedFile(rendered.fileKey!);
    expect(lab.description).toBe("Oak Lab linear RGB (test)");
    expect(Math.abs(lab.mean - 55)).toBeLessThan(3);
  }, 240_000);
});
