import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { and, eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import * as batchesRoute from "@/app/v1/production/batches/route";
import * as backgroundsRoute from "@/app/v1/production/backgrounds/route";
import * as sheetRoute from "@/app/v1/price-sheets/[id]/route";
import { getDb } from "@/lib/foundation/db/client";
import { galleries, galleryPhotos, jobFiles, orderItems, photoMattes, printFiles, subjects } from "@/lib/foundation/db/schema";
import { newId } from "@/lib/foundation/ids";
import { storage } from "@/lib/domain/storage";
import { shutDownBackgroundRemoval } from "@/lib/engines/ml/background-removal";
import { filesToRender } from "@/lib/services/production/batch-steps";
import { renderPrintFiles } from "@/lib/services/production/render-print-files";
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
    return { photoId: gp!.id, subjectId, jobFileId: file!.id };
  }

  /** A paid order of one square print of the child on the navy background. */
  async function orderOnNavy(kid: { photoId: string; subjectId: string }) {
    const order = await shop.paidOrder(kid, false, [{ ref: "isq", quantity: 1 }]);
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
  return { owner, db, navy: navy.json.id as string, childWith, orderOnNavy, batchFiles, fileOfOrder };
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
    // matte that keeps the whole photo, the print comes out as the photo alone, no navy at all.
    await storage().put(mattes[0]!.storageKey, await sharp({ create: { width: 512, height: 512, channels: 3, background: "#ffffff" } }).toColourspace("b-w").png().toBuffer(), "image/png");
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
});
