import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import * as batchesRoute from "@/app/v1/production/batches/route";
import * as printFileRoute from "@/app/v1/production/print-files/[id]/route";
import { getDb } from "@/lib/foundation/db/client";
import { photoFaces, printFiles } from "@/lib/foundation/db/schema";
import { detectFaces, shutDownFaces } from "@/lib/engines/ml/faces";
import { filesToRender } from "@/lib/services/production/batch-steps";
import { renderPrintFiles } from "@/lib/services/production/render-print-files";
import { faceSafeAreaCounts } from "@/lib/services/production/face-safe-area";
import { photoFace } from "@/lib/services/orders/photo-face";
import { faceStartCrop } from "@/lib/services/orders/crop";
import { storage } from "@/lib/domain/storage";
import { call, testAccount } from "../http";
import { productionStudio } from "../support/production-fixtures";
import { childWithPhotos } from "../support/parent-photos";

// Preflight's face check on real print files: the real face engine finds the child's
// face again on each rendered file, and a crop the parent pushed so far that the face
// is cut holds the file with its code and reason, until the studio re-crops it.

afterAll(() => shutDownFaces());

const PORTRAIT = fs.readFileSync(path.join(process.cwd(), "test/fixtures/faces/obama.jpg")); // 640 x 800, exactly 4:5
/** 4 x 5 in with 3 mm bleed: 1270 x 1570 px at 300 ppi (35 px of bleed a side); 100 ppi of the original is enough here. */
const FOUR_BY_FIVE = { key: "45", width_in: 4, height_in: 5, bleed_mm: 3, min_ppi: 100, color_mode: "rgb" as const };

/**
 * A group photo, 800 x 571: three faces the engine finds, left to right about x 302-376, 458-531
 * (the two men, y 153-255) and 654-716 (the girl, y 423-504, 84 % of the largest face's width).
 */
const GROUP = fs.readFileSync(path.join(process.cwd(), "lib/engines/ml/faces/demo-photos/event-3-group.jpg"));
/** 7 x 5 in with 3 mm bleed: 2170 x 1570 px; the safe area starts 70 px in (35 px of bleed, 3 mm of margin); the crops below hold 57 ppi of the original. */
const SEVEN_BY_FIVE = { key: "75", width_in: 7, height_in: 5, bleed_mm: 3, min_ppi: 50, color_mode: "rgb" as const };

/** A studio selling the 4 x 5 (or the 7 x 5) and a child whose one photo is the portrait (or the group photo). */
async function portraitStudio(photo: Buffer = PORTRAIT, product = FOUR_BY_FIVE) {
  const owner = await testAccount();
  const shop = await productionStudio(owner.token, owner.account.id, [product]);
  const kid = await childWithPhotos(owner.account.id, shop.studio.agencyId, shop.studio.jobId, [photo]);
  return { owner, shop, child: { photoId: kid.photoIds[0]!, subjectId: kid.subjectId }, jobFileId: kid.jobFileIds[0]! };
}

describe("the face inside the print's safe area", () => {
  it("passes a crop with the whole face inside and holds one that cuts it, with the code and the reason in words; a re-crop releases it", async () => {
    const { owner, shop, child } = await portraitStudio();
    // The face's box in the photo is about x 262-429, y 89-291 (of 640 x 800).
    const whole = await shop.paidOrder(child, false, [{ ref: "i45", quantity: 1, crop: { x: 0, y: 0, width: 1, height: 1 } }]);
    // Zoomed in on the right half of the top: the face's left third is outside the crop.
    const pushed = await shop.paidOrder(child, false, [{ ref: "i45", quantity: 1, crop: { x: 0.5, y: 0, width: 0.5, height: 0.5 } }]);

    const db = await getDb();
    const batch = await call(batchesRoute, "POST", "/v1/production/batches", { token: owner.token, body: { shipping: "direct", job_id: Number(shop.studio.jobId) } });
    expect(batch.status).toBe(202);
    const ids = await filesToRender(db, owner.account.id, batch.json.id);
    expect(ids).toHaveLength(2);
    await renderPrintFiles(db, owner.account.id, ids);
    const fileOf = async (orderId: string) => (await db.select().from(printFiles).where(eq(printFiles.orderId, orderId)))[0]!;

    const ok = await fileOf(whole.id);
    expect([ok.status, ok.holdCode, ok.holdReasons, ok.widthPx, ok.heightPx]).toEqual(["rendered", null, [], 1270, 1570]);

    const held = await fileOf(pushed.id);
    expect(held.status).toBe("held");
    expect(held.holdCode).toBe("face_outside_safe_area");
    expect(held.holdReasons).toHaveLength(1);
    // Found again on the file, about 6 mm past the safe area on the left (measured: 5.9 mm).
    expect(held.holdReasons[0]).toMatch(/face crosses the print.s safe area \(found again on the rendered file: [0-9.]+ mm on the left/);
    expect(held.holdReasons[0]).toMatch(/3 mm inside the trim/);
    expect(held.holdReasons[0]).toMatch(/Re-crop/);
    // The studio sees it on the file's page, and re-crops it to the whole photo: rendered and released.
    const seen = await call(printFileRoute, "GET", `/v1/production/print-files/${held.id}`, { token: owner.token, params: { id: held.id } });
    expect(seen.json).toMatchObject({ status: "held", hold_code: "face_outside_safe_area" });
    const fixed = await call(printFileRoute, "PATCH", `/v1/production/print-files/${held.id}`, { token: owner.token, params: { id: held.id }, body: { action: "recrop", crop: { x: 0.05, y: 0, width: 0.9, height: 0.9 } } });
    expect(fixed.status).toBe(200);
    expect(await fileOf(pushed.id)).toMatchObject({ status: "rendered", holdCode: null, holdReasons: [] });
  }, 240_000);

  it("detects the face again only when the stored face lies near the safe area's edge: a face clearly inside passes without the engine", async () => {
    const { owner, shop, child } = await portraitStudio();
    // The whole photo: the face (x 262-429, y 89-291 of 640 x 800) is far inside on every side.
    const inside = await shop.paidOrder(child, false, [{ ref: "i45", quantity: 1, crop: { x: 0, y: 0, width: 1, height: 1 } }]);
    // 400 x 500 px from x 220, y 40 (3x on the file): the face's left edge lands 91 px (7.7 mm) inside the
    // safe area, under a quarter of its 501 px width: near the edge, so it is detected again (and passes).
    const near = await shop.paidOrder(child, false, [{ ref: "i45", quantity: 1, crop: { x: 220 / 640, y: 0.05, width: 0.625, height: 0.625 } }]);

    const db = await getDb();
    const batch = await call(batchesRoute, "POST", "/v1/production/batches", { token: owner.token, body: { shipping: "direct", job_id: Number(shop.studio.jobId) } });
    const ids = await filesToRender(db, owner.account.id, batch.json.id);
    const fileOf = async (orderId: string) => (await db.select().from(printFiles).where(eq(printFiles.orderId, orderId)))[0]!;
    const insideId = (await fileOf(inside.id)).id;
    const nearId = (await fileOf(near.id)).id;
    expect(ids.sort()).toEqual([insideId, nearId].sort());

    // One file at a time, so each one's use of the engine is seen on its own.
    const before = { ...faceSafeAreaCounts };
    await renderPrintFiles(db, owner.account.id, [insideId]);
    expect(faceSafeAreaCounts).toEqual({ detected: before.detected, skipped: before.skipped + 1 });
    await renderPrintFiles(db, owner.account.id, [nearId]);
    expect(faceSafeAreaCounts).toEqual({ detected: before.detected + 1, skipped: before.skipped + 1 });
    expect(await fileOf(inside.id)).toMatchObject({ status: "rendered", holdCode: null, holdReasons: [] });
    expect(await fileOf(near.id)).toMatchObject({ status: "rendered", holdCode: null, holdReasons: [] });
  }, 240_000);

  it("keeps every face of a group photo inside the safe area: the whole photo passes without the engine; a crop that leaves out or cuts faces is held, naming how many cross and by how much", async () => {
    const { owner, shop, child, jobFileId } = await portraitStudio(GROUP, SEVEN_BY_FIVE);
    const whole = await shop.paidOrder(child, false, [{ ref: "i75", quantity: 1, crop: { x: 0, y: 0, width: 1, height: 1 } }]);
    // The two men (x 240-640, y 57-343): the girl is left out of the print; the most prominent face is far inside.
    const men = await shop.paidOrder(child, false, [{ ref: "i75", quantity: 1, crop: { x: 0.3, y: 0.1, width: 0.5, height: 0.5 } }]);
    // x 320-720: the left man's face is cut at its left side too.
    const cut = await shop.paidOrder(child, false, [{ ref: "i75", quantity: 1, crop: { x: 0.4, y: 0.1, width: 0.5, height: 0.5 } }]);

    const db = await getDb();
    const batch = await call(batchesRoute, "POST", "/v1/production/batches", { token: owner.token, body: { shipping: "direct", job_id: Number(shop.studio.jobId) } });
    const ids = await filesToRender(db, owner.account.id, batch.json.id);
    expect(ids).toHaveLength(3);
    const fileOf = async (orderId: string) => (await db.select().from(printFiles).where(eq(printFiles.orderId, orderId)))[0]!;

    // The whole photo: every face clearly inside, so the engine does not run on the file.
    const wholeId = (await fileOf(whole.id)).id;
    const before = { ...faceSafeAreaCounts };
    await renderPrintFiles(db, owner.account.id, [wholeId]);
    expect(faceSafeAreaCounts).toEqual({ detected: before.detected, skipped: before.skipped + 1 });
    expect(await fileOf(whole.id)).toMatchObject({ status: "rendered", holdCode: null, holdReasons: [], widthPx: 2170, heightPx: 1570 });
    // All three faces were kept with the photo (one detection on the original).
    const [row] = await db.select().from(photoFaces).where(eq(photoFaces.jobFileId, jobFileId));
    expect(row!.faces).toHaveLength(3);
    expect(row!.faces![0]).toEqual(row!.faceBox);

    await renderPrintFiles(db, owner.account.id, ids.filter((id) => id !== wholeId));
    const menFile = await fileOf(men.id);
    expect([menFile.status, menFile.holdCode]).toEqual(["held", "face_outside_safe_area"]);
    // The girl lands about 37 mm right of and 75 mm below the safe area (where the crop puts her: not on the file).
    expect(menFile.holdReasons).toHaveLength(1);
    expect(menFile.holdReasons[0]).toMatch(/^1 of the 3 faces in this group photo crosses the print.s safe area \(the 3rd from the left, not found again on the rendered file, where the crop puts it: [0-9.]+ mm on the right, [0-9.]+ mm at the bottom; every face must be at least 3 mm inside the trim/);
    expect(menFile.holdReasons[0]).toMatch(/Re-crop so every face is inside\.$/);
    const mmOf = (reason: string, side: string) => Number(new RegExp(`([0-9.]+) mm ${side}`).exec(reason)![1]);
    expect(mmOf(menFile.holdReasons[0]!, "on the right")).toBeGreaterThan(30);
    expect(mmOf(menFile.holdReasons[0]!, "at the bottom")).toBeGreaterThan(65);

    const cutFile = await fileOf(cut.id);
    expect([cutFile.status, cutFile.holdCode]).toEqual(["held", "face_outside_safe_area"]);
    expect(cutFile.holdReasons[0]).toMatch(/^2 of the 3 faces in this group photo cross the print.s safe area \(the 1st from the left, [^;]*[0-9.]+ mm on the left; the 3rd from the left, /);

    // The studio re-crops to the whole photo: released.
    const fixed = await call(printFileRoute, "PATCH", `/v1/production/print-files/${menFile.id}`, { token: owner.token, params: { id: menFile.id }, body: { action: "recrop", crop: { x: 0, y: 0, width: 1, height: 1 } } });
    expect(fixed.status).toBe(200);
    expect(await fileOf(men.id)).toMatchObject({ status: "rendered", holdCode: null, holdReasons: [] });
  }, 240_000);

  it("completes a face row kept before all faces were, and leaves out a face under 40 % of the largest one's width", async () => {
    const { owner, shop, child, jobFileId } = await portraitStudio(GROUP, SEVEN_BY_FIVE);
    const first = await shop.paidOrder(child, false, [{ ref: "i75", quantity: 1, crop: { x: 0.3, y: 0.1, width: 0.5, height: 0.5 } }]);
    const second = await shop.paidOrder(child, false, [{ ref: "i75", quantity: 1, crop: { x: 0.3, y: 0.1, width: 0.5, height: 0.5 } }]);
    const db = await getDb();
    // A row as kept before: the most prominent face and its frame, no list of faces.
    const found = (await photoFace(db, owner.account.id, jobFileId))!;
    await db.update(photoFaces).set({ faces: null }).where(eq(photoFaces.jobFileId, jobFileId));

    const batch = await call(batchesRoute, "POST", "/v1/production/batches", { token: owner.token, body: { shipping: "direct", job_id: Number(shop.studio.jobId) } });
    await filesToRender(db, owner.account.id, batch.json.id);
    const fileOf = async (orderId: string) => (await db.select().from(printFiles).where(eq(printFiles.orderId, orderId)))[0]!;
    await renderPrintFiles(db, owner.account.id, [(await fileOf(first.id)).id]);
    // Looked at again: the girl, left out by the crop, holds the file; the row has all three faces, its face and frame unchanged.
    expect(await fileOf(first.id)).toMatchObject({ status: "held", holdCode: "face_outside_safe_area" });
    const [row] = await db.select().from(photoFaces).where(eq(photoFaces.jobFileId, jobFileId));
    expect([row!.faceBox, row!.frame, row!.faces]).toEqual([found.faceBox, found.frame, found.faces]);

    // The girl's face, were it under 40 % of the largest face's width (a face far behind), would not count: the same crop passes, without the engine.
    const girl = found.faces.find((f) => f.y > 0.6)!;
    const largest = Math.max(...found.faces.map((f) => f.width));
    await db
      .update(photoFaces)
      .set({ faces: found.faces.map((f) => (f === girl ? { ...f, width: 0.39 * largest } : f)) })
      .where(eq(photoFaces.jobFileId, jobFileId));
    const before = { ...faceSafeAreaCounts };
    await renderPrintFiles(db, owner.account.id, [(await fileOf(second.id)).id]);
    expect(faceSafeAreaCounts).toEqual({ detected: before.detected, skipped: before.skipped + 1 });
    expect(await fileOf(second.id)).toMatchObject({ status: "rendered", holdCode: null, holdReasons: [] });
  }, 240_000);

  it("starts a package's prints (no crop drawn) around the face as a single print's crop starts, not centred through it; the studio's fix opens on that box", async () => {
    // The portrait at the left of a wide photo, 2000 x 800: the face is about x 412-579. A 4 x 5's
    // largest box here is 1000 x 800 (printed 5 x 4); centred (x 500-1500) it cuts through the face.
    const wide = await sharp(PORTRAIT).extend({ left: 150, right: 1210, background: "#8a8f94" }).jpeg({ quality: 92 }).toBuffer();
    const { owner, shop, child, jobFileId } = await portraitStudio(wide);
    const pack = await shop.paidOrder(child, false, [{ ref: "pkg", kind: "package", quantity: 1 }]);

    const db = await getDb();
    const batch = await call(batchesRoute, "POST", "/v1/production/batches", { token: owner.token, body: { shipping: "direct", job_id: Number(shop.studio.jobId) } });
    const ids = await filesToRender(db, owner.account.id, batch.json.id);
    expect(ids).toHaveLength(1); // the package's two 4 x 5s are one file of quantity 2 (its digital file prints nothing)
    await renderPrintFiles(db, owner.account.id, ids);
    const [file] = await db.select().from(printFiles).where(eq(printFiles.orderId, pack.id));
    expect([file!.status, file!.holdCode, file!.holdReasons, file!.quantity, file!.widthPx, file!.heightPx]).toEqual(["rendered", null, [], 2, 1570, 1270]);

    // The box it printed: the largest at the print's shape (nothing smaller holds 300 ppi here), moved to the face.
    const face = (await photoFace(db, owner.account.id, jobFileId))!;
    const start = faceStartCrop({ width: 2000, height: 800, original_width: 2000, original_height: 800 }, { width_in: 4, height_in: 5 }, face.frame);
    expect(start.x + start.width).toBeGreaterThan(579 / 2000);
    const seen = await call(printFileRoute, "GET", `/v1/production/print-files/${file!.id}`, { token: owner.token, params: { id: file!.id } });
    expect(seen.status).toBe(200);
    expect(seen.json.fix.crop).toEqual(start);
    // The rendered file shows the face whole, as detected on it.
    const print = await storage().get(file!.fileKey!);
    const found = await detectFaces(new Uint8Array(print!.body));
    expect(found.faces).toHaveLength(1);
  }, 240_000);
});

