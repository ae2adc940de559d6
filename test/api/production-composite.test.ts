import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import * as batchesRoute from "@/app/v1/production/batches/route";
import * as backgroundsRoute from "@/app/v1/production/backgrounds/route";
import * as sheetRoute from "@/app/v1/price-sheets/[id]/route";
import * as printFileRoute from "@/app/v1/production/print-files/[id]/route";
import { getDb } from "@/lib/foundation/db/client";
import { galleries, galleryPhotos, jobFiles, orderItems, photoMattes, printFiles, subjects } from "@/lib/foundation/db/schema";
import { newId } from "@/lib/foundation/ids";
import { storage } from "@/lib/domain/storage";
import { shutDownBackgroundRemoval } from "@/lib/engines/ml/background-removal";
import { filesToRender } from "@/lib/services/production/batch-steps";
import { renderPrintFiles } from "@/lib/services/production/render-print-files";
import { HEAD_CUT_REASON } from "@/lib/services/production/head-cut";
import { photoFace } from "@/lib/services/orders/photo-face";
import { call, testAccount } from "../http";
import { patternPng, productionStudio } from "../support/production-fixtures";

// Prints on a studio background, through the real background-removal engine (one model
// load for the file), real storage and the real print pipeline. The composite is
// checked against a reference computed here from the very matte the engine stored.

afterAll(() => shutDownBackgroundRemoval());

const ASTRONAUT = fs.readFileSync(path.join(process.cwd(), "lib/engines/ml/background-removal/fixtures/astronaut.png"));
const NAVY = { r: 0x1e, g: 0x3a, b: 0x5f };
/** 4 x 4 in at 300 ppi from the 512 px portrait: 128 ppi of the original, above the product's 100. */
const SQUARE = { key: "sq", width_in: 4, height_in: 4, bleed_mm: 0, min_ppi: 100, color_mode: "rgb" as const };

async function studioWithBackgrounds() {
  const owner = await testAccount();
  const shop = await productionStudio(owner.token, owner.account.id, [SQUARE]);
  const items = [{ id: "isq", kind: "print", product_id: shop.productIds.sq, name: "Square", price: 1000, lab_cost: 200, allow_backgrounds: true }, { id: "dig", kind: "digital", name: "Digital", price: 500, lab_cost: 0 }];
  const patched = await call(sheetRoute, "PATCH", `/v1/price-sheets/${shop.sheetId}`, { token: owner.token, params: { id: shop.sheetId }, body: { items, packages: [] } });
  if (patched.status !== 200) throw new Error(patched.text);
  const navy = await call(backgroundsRoute, "POST", "/v1/production/backgrounds", { token: owner.token, body: { name: "Navy", color: "#1e3a5f" } });
  if (navy.status !== 201) throw new Error(navy.text);
  const db = await getDb();

  /** A child whose gallery holds this photo. */
  async function childWith(photo: Buffer, name: string) {
    const subjectId = newId("sub");
    await db.insert(subjects).values({ id: subjectId, accountId: owner.account.id, agencyId: Number(shop.studio.agencyId), studentId: `S-${subjectId.slice(-6)}`, name, className: "2B", teacher: "Ms Baker" });
    const [gallery] = await db.insert(galleries).values({ id: newId("gal"), accountId: owner.account.id, jobId: Number(shop.studio.jobId), kind: "subject", subjectId, status: "published", publishedAt: new Date() }).returning();
    const key = `studio/${owner.account.id}/composite-test/${subjectId}.png`;
    await storage().put(key, photo, "image/png");
    const meta = await sharp(photo).metadata();
    const [file] = await db.insert(jobFiles).values({ accountId: owner.account.id, jobId: Number(shop.studio.jobId), filename: `${name}.png`, storageKey: key, thumbnailKey: key, contentType: "image/png", size: photo.length, width: meta.width!, height: meta.height! }).returning();
    const [gp] = await db.insert(galleryPhotos).values({ id: newId("gph"), galleryId: gallery!.id, accountId: owner.account.id, jobFileId: file!.id, source: "qr_sort", position: 0 }).returning();
    return { photoId: gp!.id, subjectId, jobFileId: file!.id, galleryId: gallery!.id };
  }

  /** Another photo of the same child, in its gallery. */
  async function anotherPhoto(kid: { galleryId: string }, photo: Buffer) {
    const key = `studio/${owner.account.id}/composite-test/${newId("f")}.png`;
    await storage().put(key, photo, "image/png");
    const meta = await sharp(photo).metadata();
    const [file] = await db.insert(jobFiles).values({ accountId: owner.account.id, jobId: Number(shop.studio.jobId), filename: "second.png", storageKey: key, thumbnailKey: key, contentType: "image/png", size: photo.length, width: meta.width!, height: meta.height! }).returning();
    const [gp] = await db.insert(galleryPhotos).values({ id: newId("gph"), galleryId: kid.galleryId, accountId: owner.account.id, jobFileId: file!.id, source: "qr_sort", position: 1 }).returning();
    return gp!.id;
  }

  /** A paid order of one square print of the child on the navy background. */
  async function orderOnNavy(kid: { photoId: string; subjectId: string }) {
    const order = await shop.paidOrder(kid, false, [{ ref: "isq", quantity: 1 }]);
    await db.update(orderItems).set({ backgroundId: navy.json.id }).where(eq(orderItems.id, order.itemIds[0]!));
    return order;
  }

  /** A paid order of one square print of the child on the navy background, with the parent's crop. */
  async function orderOnNavyCropped(kid: { photoId: string; subjectId: string }, crop: { x: number; y: number; width: number; height: number } | undefined) {
    const order = await shop.paidOrder(kid, false, [{ ref: "isq", quantity: 1, crop }]);
    await db.update(orderItems).set({ backgroundId: navy.json.id }).where(eq(orderItems.id, order.itemIds[0]!));
    return order;
  }

  /** Makes the job's batch and renders the files given (the job's own step, called here without a runner). */
  async function batchFiles() {
    const batch = await call(batchesRoute, "POST", "/v1/production/batches", { token: owner.token, body: { shipping: "direct", job_id: Number(shop.studio.jobId) } });
    if (batch.status !== 202) throw new Error(batch.text);
    return filesToRender(db, owner.account.id, batch.json.id);
  }

  const fileOfOrder = async (orderId: string) => (await db.select().from(printFiles).where(eq(printFiles.orderId, orderId)))[0]!;
  const fileOfItem = async (itemId: string) => (await db.select().from(printFiles).where(eq(printFiles.orderItemId, itemId)))[0]!;
  return { owner, shop, db, navy: navy.json.id as string, childWith, anotherPhoto, orderOnNavy, orderOnNavyCropped, batchFiles, fileOfOrder, fileOfItem };
}

/** Per-pixel RGB of an image, and its matte resized the same way, at a size. */
const rgb = async (img: sharp.Sharp) => (await img.removeAlpha().raw().toBuffer({ resolveWithObject: true })).data;

describe("prints on a studio background", () => {
  it("composites the child onto the background with the engine's matte (no halo against a reference from the same matte), makes the matte once per photo, and holds a doubtful one", async () => {
    const s = await studioWithBackgrounds();
    const ada = await s.childWith(ASTRONAUT, "Ada Park");
    const first = await s.orderOnNavy(ada);
    const second = await s.orderOnNavy(ada);
    const nobody = await s.childWith(await patternPng(), "No One");
    const doubtful = await s.orderOnNavy(nobody);

    const ids = await s.batchFiles();
    expect(ids).toHaveLength(3);
    const firstFile = await s.fileOfOrder(first.id);
    const secondFile = await s.fileOfOrder(second.id);
    const doubtfulFile = await s.fileOfOrder(doubtful.id);
    expect(firstFile.backgroundId).toBe(s.navy);

    // The first print: the engine runs once on the original and its matte is stored.
    await renderPrintFiles(s.db, s.owner.account.id, [firstFile.id]);
    const rendered = await s.fileOfOrder(first.id);
    expect([rendered.status, rendered.holdReasons, rendered.widthPx, rendered.heightPx]).toEqual(["rendered", [], 1200, 1200]);
    const mattes = await s.db.select().from(photoMattes).where(and(eq(photoMattes.jobFileId, ada.jobFileId), eq(photoMattes.scale, "full")));
    expect(mattes).toHaveLength(1);
    expect([mattes[0]!.width, mattes[0]!.height, mattes[0]!.doubts]).toEqual([512, 512, []]);
    const matte = (await storage().get(mattes[0]!.storageKey))!.body;

    // The reference: photo × a + navy × (1 − a) from the stored matte, in floating point, at the print's size.
    const { data: photo } = await sharp(ASTRONAUT).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const { data: alpha } = await sharp(matte).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
    const ref = Buffer.alloc(512 * 512 * 3);
    const navy = [NAVY.r, NAVY.g, NAVY.b];
    for (let p = 0; p < 512 * 512; p++) {
      const a = alpha[p]! / 255;
      for (let c = 0; c < 3; c++) ref[p * 3 + c] = Math.round(photo[p * 3 + c]! * a + navy[c]! * (1 - a));
    }
    const refPrint = await rgb(sharp(ref, { raw: { width: 512, height: 512, channels: 3 } }).resize(1200, 1200, { fit: "fill", kernel: "lanczos3" }));
    const matteAt = (await sharp(matte).extractChannel(0).resize(1200, 1200, { fit: "fill" }).raw().toBuffer());
    const out = await rgb(sharp((await storage().get(rendered.fileKey!))!.body));

    // The edge band (matte neither child nor background): small error, and the same mean colour (a halo would shift it).
    let band = 0;
    let err = 0;
    const meanOut = [0, 0, 0];
    const meanRef = [0, 0, 0];
    let bg = 0;
    let bgErr = 0;
    for (let p = 0; p < 1200 * 1200; p++) {
      const a = matteAt[p]!;
      if (a > 25 && a < 230) {
        band++;
        for (let c = 0; c < 3; c++) {
          err += Math.abs(out[p * 3 + c]! - refPrint[p * 3 + c]!);
          meanOut[c]! += out[p * 3 + c]!;
          meanRef[c]! += refPrint[p * 3 + c]!;
        }
      } else if (a === 0) {
        bg++;
        for (let c = 0; c < 3; c++) bgErr += Math.abs(out[p * 3 + c]! - navy[c]!);
      }
    }
    expect(band).toBeGreaterThan(2000); // the soft edge is really there
    expect(err / (band * 3)).toBeLessThan(4);
    for (let c = 0; c < 3; c++) expect(Math.abs(meanOut[c]! - meanRef[c]!) / band).toBeLessThan(2);
    expect(bg).toBeGreaterThan(100_000); // most of the frame behind her is the background now
    expect(bgErr / (bg * 3)).toBeLessThan(3);

    // The second print of the same photo reads the stored matte: replaced on purpose by a
    // matte that keeps the whole photo (but its top two rows: a person running off the top
    // there would be a head cut, held), the print comes out as the photo alone, no navy at all.
    const whole = await sharp({ create: { width: 512, height: 510, channels: 3, background: "#ffffff" } }).extend({ top: 2, background: "#000000" }).toColourspace("b-w").png().toBuffer();
    await storage().put(mattes[0]!.storageKey, whole, "image/png");
    await renderPrintFiles(s.db, s.owner.account.id, [secondFile.id]);
    const again = await s.fileOfOrder(second.id);
    expect(again.status).toBe("rendered");
    const plain = await rgb(sharp(ASTRONAUT).resize(1200, 1200, { fit: "fill", kernel: "lanczos3" }));
    const secondOut = await rgb(sharp((await storage().get(again.fileKey!))!.body));
    let diff = 0;
    for (let i = 0; i < plain.length; i++) diff += Math.abs(plain[i]! - secondOut[i]!);
    expect(diff / plain.length).toBeLessThan(3);
    const after = await s.db.select().from(photoMattes).where(eq(photoMattes.jobFileId, ada.jobFileId));
    expect(after.map((m) => m.id)).toEqual([mattes[0]!.id]);

    // A photo whose cut-out the engine doubts goes to the studio, not the lab.
    await renderPrintFiles(s.db, s.owner.account.id, [doubtfulFile.id]);
    const held = await s.fileOfOrder(doubtful.id);
    expect([held.status, held.holdCode, held.fileKey]).toEqual(["held", "matte_doubtful", null]);
    expect(held.holdReasons.length).toBeGreaterThan(0);
    expect(held.holdReasons.join(" ")).toMatch(/cut-out|person/);
  }, 240_000);

  it("lets the studio fix a held print from the order page: re-crop, another photo of the child, release a doubtful cut-out, drop the background; each renders and checks again", async () => {
    const s = await studioWithBackgrounds();
    const fix = (token: string, id: string, body: unknown) => call(printFileRoute, "PATCH", `/v1/production/print-files/${id}`, { token, params: { id }, body });
    const pattern = await patternPng();
    const nobody = await s.childWith(pattern, "No One");
    const other = await s.childWith(pattern, "Someone Else");
    const onNavy = await s.orderOnNavy(nobody);
    const onNavy2 = await s.orderOnNavy(nobody);
    // A crop of 20 % of the 1200 px pattern over 4 in: 60 ppi, under the product's 100.
    const tiny = await s.shop.paidOrder(nobody, false, [{ ref: "isq", quantity: 1, crop: { x: 0.1, y: 0.1, width: 0.2, height: 0.2 * (1200 / 900) } }]);
    await renderPrintFiles(s.db, s.owner.account.id, await s.batchFiles());

    const doubtful = await s.fileOfOrder(onNavy.id);
    const doubtful2 = await s.fileOfOrder(onNavy2.id);
    const small = await s.fileOfOrder(tiny.id);
    expect([doubtful.status, doubtful.holdCode]).toEqual(["held", "matte_doubtful"]);
    expect([small.status, small.holdCode]).toEqual(["held", "preflight"]);
    expect(small.holdReasons.join(" ")).toMatch(/ppi/);

    // Not the studio's file, or not held: refused before anything changes.
    const stranger = await testAccount();
    expect((await fix(stranger.token, doubtful.id, { action: "release_matte" })).status).toBe(404);
    expect((await fix(s.owner.token, small.id, { action: "release_matte" })).status).toBe(409);
    const badCrop = await fix(s.owner.token, small.id, { action: "recrop", crop: { x: 0.9, y: 0, width: 0.5, height: 0.5 } });
    expect(badCrop.status).toBe(400);
    expect(JSON.stringify(badCrop.json)).toContain("crop");
    const foreignPhoto = await fix(s.owner.token, small.id, { action: "photo", photo_id: other.photoId });
    expect([foreignPhoto.status, foreignPhoto.json.details.fields[0].field]).toEqual([400, "photo_id"]);

    // Re-crop: the whole width (1200 px over 4 in, 300 ppi) passes and goes to the lab.
    const recropped = await fix(s.owner.token, small.id, { action: "recrop", crop: { x: 0.125, y: 0, width: 0.75, height: 1 } });
    expect(recropped.status, recropped.text).toBe(200);
    expect(recropped.json).toMatchObject({ status: "rendered", hold_code: null, hold_reasons: [], width_px: 1200, height_px: 1200, source_ppi: 225 });
    expect((await fix(s.owner.token, small.id, { action: "recrop", crop: { x: 0, y: 0, width: 1, height: 1 } })).status).toBe(409);

    // Release the doubtful cut-out: printed on navy with the matte the engine made.
    const released = await fix(s.owner.token, doubtful.id, { action: "release_matte" });
    expect(released.status, released.text).toBe(200);
    expect(released.json).toMatchObject({ status: "rendered", matte_released: true, background_id: s.navy });
    // Drop the background instead: printed as shot (the pattern, no navy anywhere).
    const dropped = await fix(s.owner.token, doubtful2.id, { action: "drop_background" });
    expect(dropped.json).toMatchObject({ status: "rendered", background_id: null });
    const plain = await rgb(sharp(pattern).extract({ left: 150, top: 0, width: 900, height: 900 }).resize(1200, 1200, { fit: "fill", kernel: "lanczos3" }));
    const out = await rgb(sharp((await storage().get((await s.fileOfOrder(onNavy2.id)).fileKey!))!.body));
    let diff = 0;
    for (let i = 0; i < plain.length; i++) diff += Math.abs(plain[i]! - out[i]!);
    expect(diff / plain.length).toBeLessThan(4);

    // Another photo of the same child (the portrait): its own matte is made, and it prints on navy.
    const again = await s.orderOnNavy(nobody);
    await renderPrintFiles(s.db, s.owner.account.id, await s.batchFiles());
    const heldAgain = await s.fileOfOrder(again.id);
    expect(heldAgain.holdCode).toBe("matte_doubtful");
    const portrait = await s.anotherPhoto(nobody, ASTRONAUT);
    // What the order page's fix offers: the child's photos whose previews are ready (not the other child's), the print's size.
    await s.db.update(galleryPhotos).set({ previewWidth: 1200, previewHeight: 900 }).where(eq(galleryPhotos.id, nobody.photoId));
    await s.db.update(galleryPhotos).set({ previewWidth: 512, previewHeight: 512 }).where(inArray(galleryPhotos.id, [portrait, other.photoId]));
    const choices = await call(printFileRoute, "GET", `/v1/production/print-files/${heldAgain.id}`, { token: s.owner.token, params: { id: heldAgain.id } });
    expect(choices.status, choices.text).toBe(200);
    expect(choices.json.fix).toMatchObject({ photo_id: nobody.photoId, crop: null, size: { width_in: 4, height_in: 4 } });
    expect(choices.json.fix.photos.map((p: { id: string; original_width: number }) => [p.id, p.original_width])).toEqual([
      [nobody.photoId, 1200],
      [portrait, 512],
    ]);
    expect(choices.json.fix.photos[0].preview_url).toMatch(/\/g\/previews\//);
    const swapped = await fix(s.owner.token, heldAgain.id, { action: "photo", photo_id: portrait });
    expect(swapped.status, swapped.text).toBe(200);
    expect(swapped.json).toMatchObject({ status: "rendered", matte_released: false, background_id: s.navy });
    const row = await s.fileOfOrder(again.id);
    expect(row.photoId).toBe(portrait);
    const printed = await rgb(sharp((await storage().get(row.fileKey!))!.body));
    let navyPx = 0;
    for (let p = 0; p < printed.length; p += 3) if (Math.abs(printed[p]! - NAVY.r) + Math.abs(printed[p + 1]! - NAVY.g) + Math.abs(printed[p + 2]! - NAVY.b) < 12) navyPx++;
    expect(navyPx / (1200 * 1200)).toBeGreaterThan(0.2);
  }, 240_000);

  it("holds a print for a head cut by the photo's top only where the print's crop needs the head: a portrait with room above passes, a head cut by the frame is held, the same photo cropped below the cut passes", async () => {
    const s = await studioWithBackgrounds();
    // A head-and-shoulders portrait with room above the head (its matte's top row is empty).
    const roomy = await s.childWith(fs.readFileSync(path.join(process.cwd(), "test/fixtures/faces/obama.jpg")), "Roomy Head");
    // A portrait framed tight at the top: its top 48 rows cut away, the hair runs off the photo's top (800 x 752).
    const tight = await sharp(fs.readFileSync(path.join(process.cwd(), "test/fixtures/faces/biden2.jpg"))).extract({ left: 0, top: 48, width: 800, height: 752 }).png().toBuffer();
    const cut = await s.childWith(tight, "Cut Head");
    const face = (await photoFace(s.db, s.owner.account.id, cut.jobFileId))!.faceBox;
    // The whole-height square (what the cart starts with), and one the parent starts below the cut, the face well inside.
    const whole = await s.orderOnNavyCropped(cut, undefined);
    const belowTop = 0.05;
    const side = 0.8 * (752 / 800);
    const lower = await s.orderOnNavyCropped(cut, { x: face.x + face.width / 2 - side / 2, y: belowTop, width: side, height: 0.8 });
    expect(face.y).toBeGreaterThan(belowTop + 0.08);
    // Its square from the photo's top (the rule looks, and finds the room above the head).
    const roomyOrder = await s.orderOnNavyCropped(roomy, { x: 0, y: 0, width: 1, height: 0.8 });
    await renderPrintFiles(s.db, s.owner.account.id, await s.batchFiles());

    const roomyFile = await s.fileOfOrder(roomyOrder.id);
    expect(["roomy", roomyFile.status, roomyFile.holdReasons]).toEqual(["roomy", "rendered", []]);
    const wholeFile = await s.fileOfOrder(whole.id);
    expect([wholeFile.status, wholeFile.holdCode, wholeFile.holdReasons]).toEqual(["held", "matte_doubtful", [HEAD_CUT_REASON]]);
    const lowerFile = await s.fileOfOrder(lower.id);
    expect(["lower", lowerFile.status, lowerFile.holdReasons]).toEqual(["lower", "rendered", []]);
    // One matte of each photo, with no doubt of its own: the rule is judged per print.
    const mattes = await s.db.select().from(photoMattes).where(inArray(photoMattes.jobFileId, [roomy.jobFileId, cut.jobFileId]));
    expect(mattes.map((m) => m.doubts)).toEqual([[], []]);
  }, 240_000);
});
