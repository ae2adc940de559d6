import fs from "node:fs";
import path from "node:path";
import crypto from "node:crypto";
import sharp from "sharp";
import { and, eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import * as previewRoute from "@/app/v1/parent/photos/[photoId]/backgrounds/[backgroundId]/route";
import * as backgroundsRoute from "@/app/v1/production/backgrounds/route";
import { getDb } from "@/lib/foundation/db/client";
import { photoMattes } from "@/lib/foundation/db/schema";
import { storage } from "@/lib/domain/storage";
import { shutDownBackgroundRemoval } from "@/lib/engines/ml/background-removal";
import { watermarkOf } from "@/lib/services/galleries/settings";
import { renderWatermarkedPreview } from "@/lib/services/galleries/watermark";
import { call, testAccount } from "../http";
import { sellingStudio } from "../support/orders-fixtures";
import { childWithPhotos } from "../support/parent-photos";

// The storefront's live background preview, through the parent's route, the real
// background-removal engine (one model load), real storage and the studio's watermark.
// The composite is checked against a reference made here from the very matte stored.

afterAll(() => shutDownBackgroundRemoval());

const POSTER = fs.readFileSync(path.join(process.cwd(), "lib/engines/ml/background-removal/fixtures/person-poster.jpg"));
const NAVY = [0x1e, 0x3a, 0x5f];

/** The route's answer as bytes (the test client reads text). */
async function preview(token: string, photoId: string, backgroundId: string) {
  const req = new Request(`http://localhost:3000/v1/parent/photos/${photoId}/backgrounds/${backgroundId}`, {
    headers: { authorization: `Bearer ${token}`, "x-forwarded-for": `203.0.113.${crypto.randomInt(1, 250)}` },
  });
  const res = await previewRoute.GET(req, { params: Promise.resolve({ photoId, backgroundId }) });
  return { status: res.status, type: res.headers.get("content-type"), body: Buffer.from(await res.arrayBuffer()) };
}

const raw = async (img: Buffer) => (await sharp(img).removeAlpha().raw().toBuffer({ resolveWithObject: true })).data;

describe("the cart's live background preview", () => {
  it("shows the child on the background at preview size with the watermark, from a preview matte made once; another child's photo is 404", async () => {
    const owner = await testAccount();
    const studio = await sellingStudio(owner.token);
    const navy = await call(backgroundsRoute, "POST", "/v1/production/backgrounds", { token: owner.token, body: { name: "Navy", color: "#1e3a5f" } });
    expect(navy.status).toBe(201);
    // A real photo of a person, enlarged to 2400 x 1600: larger than a preview.
    const original = await sharp(POSTER).resize(2400, 1600, { fit: "fill" }).jpeg({ quality: 92 }).toBuffer();
    const kid = await childWithPhotos(owner.account.id, studio.agencyId, studio.jobId, [original]);
    const other = await childWithPhotos(owner.account.id, studio.agencyId, studio.jobId, [await sharp(POSTER).jpeg().toBuffer()]);
    const db = await getDb();

    const t = Date.now();
    const served = await preview(kid.token, kid.photoIds[0]!, navy.json.id);
    const firstMs = Date.now() - t;
    expect([served.status, served.type]).toEqual([200, "image/jpeg"]);
    const meta = await sharp(served.body).metadata();
    expect([meta.width, meta.height]).toEqual([1200, 800]); // never the original's size
    const mattes = await db.select().from(photoMattes).where(eq(photoMattes.jobFileId, kid.jobFileIds[0]!));
    expect(mattes.map((m) => [m.scale, m.width, m.height])).toEqual([["preview", 1200, 800]]);
    const matte = (await storage().get(mattes[0]!.storageKey))!.body;

    // References from the stored matte: the original at preview size × a + navy × (1 − a), with and without the watermark.
    const W = 1200;
    const H = 800;
    const photo = await sharp(original).resize(W, W, { fit: "inside" }).raw().toBuffer();
    const alpha = await sharp(matte).extractChannel(0).raw().toBuffer();
    const ref = Buffer.alloc(W * H * 3);
    for (let p = 0; p < W * H; p++) {
      const a = alpha[p]! / 255;
      for (let c = 0; c < 3; c++) ref[p * 3 + c] = Math.round(photo[p * 3 + c]! * a + NAVY[c]! * (1 - a));
    }
    const refPng = await sharp(ref, { raw: { width: W, height: H, channels: 3 } }).png().toBuffer();
    const { watermark } = await watermarkOf(db, owner.account.id);
    const refMarked = await raw((await renderWatermarkedPreview(refPng, watermark)).jpeg);
    const out = await raw(served.body);

    let band = 0;
    let err = 0;
    let errPlain = 0;
    let marked = 0;
    let bg = 0;
    for (let p = 0; p < W * H; p++) {
      const a = alpha[p]!;
      if (a === 0) bg++;
      let plain = 0;
      for (let c = 0; c < 3; c++) plain += Math.abs(out[p * 3 + c]! - ref[p * 3 + c]!);
      if (plain > 60) marked++;
      if (a > 25 && a < 230) {
        band++;
        for (let c = 0; c < 3; c++) err += Math.abs(out[p * 3 + c]! - refMarked[p * 3 + c]!);
        errPlain += plain;
      }
    }
    expect(band).toBeGreaterThan(1000); // the soft edge is there
    expect(bg).toBeGreaterThan(W * H * 0.3); // the background behind the child is navy now
    // The edge band matches the watermarked reference (no halo: the matte's soft edge is used as is)...
    expect(err / (band * 3)).toBeLessThan(4);
    // ...and the watermark is drawn in: a share of the picture differs strongly from the unmarked composite.
    expect(marked / (W * H)).toBeGreaterThan(0.02);
    expect(errPlain / (band * 3)).toBeGreaterThan(err / (band * 3));

    // Made once: another background (a second colour) reuses the preview matte, as do repeats.
    const green = await call(backgroundsRoute, "POST", "/v1/production/backgrounds", { token: owner.token, body: { name: "Green", color: "#2f6b3a" } });
    const t0 = Date.now();
    expect((await preview(kid.token, kid.photoIds[0]!, green.json.id)).status).toBe(200);
    const secondMs = Date.now() - t0;
    expect(await db.select().from(photoMattes).where(eq(photoMattes.jobFileId, kid.jobFileIds[0]!))).toHaveLength(1);
    // Replacing the stored matte with "nobody" makes the next preview all background: the stored one is what is used.
    await storage().put(mattes[0]!.storageKey, await sharp(Buffer.alloc(W * H), { raw: { width: W, height: H, channels: 1 } }).png().toBuffer(), "image/png");
    const empty = await raw((await preview(kid.token, kid.photoIds[0]!, navy.json.id)).body);
    let far = 0;
    for (let p = 0; p < W * H; p++) if (Math.abs(empty[p * 3]! - NAVY[0]!) + Math.abs(empty[p * 3 + 1]! - NAVY[1]!) + Math.abs(empty[p * 3 + 2]! - NAVY[2]!) > 120) far++;
    expect(far / (W * H)).toBeLessThan(0.05); // only the watermark's light strokes
    expect(secondMs).toBeLessThan(firstMs); // no engine run: a composite only

    // Access: another child's code, a background of another studio, an unknown one: 404, and no matte made for them.
    expect((await preview(other.token, kid.photoIds[0]!, navy.json.id)).status).toBe(404);
    expect((await preview(kid.token, other.photoIds[0]!, navy.json.id)).status).toBe(404);
    const stranger = await testAccount();
    const theirs = await call(backgroundsRoute, "POST", "/v1/production/backgrounds", { token: stranger.token, body: { name: "Theirs", color: "#000000" } });
    expect((await preview(kid.token, kid.photoIds[0]!, theirs.json.id)).status).toBe(404);
    expect((await preview(kid.token, kid.photoIds[0]!, "bg_nope")).status).toBe(404);
    expect(await db.select().from(photoMattes).where(and(eq(photoMattes.jobFileId, other.jobFileIds[0]!)))).toHaveLength(0);
  }, 300_000);
});
