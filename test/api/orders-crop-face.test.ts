import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as faceRoute from "@/app/v1/parent/photos/[photoId]/face/route";
import { getDb } from "@/lib/foundation/db/client";
import { photoFaces } from "@/lib/foundation/db/schema";
import { shutDownFaces } from "@/lib/engines/ml/faces";
import { faceStartCrop, largestCrop, type Crop } from "@/lib/services/orders/crop";
import { groupFaces } from "@/lib/services/orders/photo-face";
import { call, testAccount } from "../http";
import { sellingStudio } from "../support/orders-fixtures";
import { childWithPhotos, groupGalleryWith } from "../support/parent-photos";
import { enterCode, enterCodeAndAwaitGalleryJob } from "../support/galleries";
import { startTestRunner, stopAll } from "../jobs/bg-remove-harness";
import { reserveAccessCodes } from "@/lib/services/galleries/reserve-codes";
import { openCode } from "@/lib/services/galleries/access-codes";
import { jobRuns } from "@/lib/foundation/db/schema";
import * as sheetRoute from "@/app/v1/price-sheets/[id]/route";

// The cart's crop starts from the face: the real face engine on a real photo, through
// the parent's route, and the cart's own starting-box function on its answer.

beforeAll(() => startTestRunner());
afterAll(async () => {
  await stopAll();
  await shutDownFaces();
});

const fixture = (name: string) => fs.readFileSync(path.join(process.cwd(), "test/fixtures/faces", name));

/**
 * obama.jpg (640 x 800, the face near the middle) enlarged 3x and set in a wider, taller
 * frame of its own edge pixels: a 3320 x 4200 photo (14 MP, a camera's size) whose face
 * is up and to the left, about 0.31 across.
 */
async function offCentrePortrait(): Promise<Buffer> {
  const big = await sharp(fixture("obama.jpg")).resize(1920, 2400).toBuffer();
  return sharp(big).extend({ right: 1400, bottom: 1800, extendWith: "copy" }).jpeg({ quality: 90 }).toBuffer();
}

const centre = (b: Crop) => ({ x: b.x + b.width / 2, y: b.y + b.height / 2 });
const contains = (outer: Crop, inner: Crop) => outer.x <= inner.x && outer.y <= inner.y && outer.x + outer.width >= inner.x + inner.width && outer.y + outer.height >= inner.y + inner.height;

describe("the cart's crop starts from the face", () => {
  it("frames an off-centre face at each print's aspect, keeps the face found once, and leaves a photo without a face centred", async () => {
    const owner = await testAccount();
    const studio = await sellingStudio(owner.token);
    const kid = await childWithPhotos(owner.account.id, studio.agencyId, studio.jobId, [await offCentrePortrait(), fixture("coffee.jpg")]);
    const other = await childWithPhotos(owner.account.id, studio.agencyId, studio.jobId, [fixture("biden.jpg")]);
    const faceOf = (token: string, photoId: string) => call(faceRoute, "GET", `/v1/parent/photos/${photoId}/face`, { token, params: { photoId } });

    const t0 = Date.now();
    const first = await faceOf(kid.token, kid.photoIds[0]!);
    const firstMs = Date.now() - t0;
    expect(first.status).toBe(200);
    const face = first.json.face as { box: Crop; frame: Crop };
    expect(face).not.toBeNull();
    expect(centre(face.box).x).toBeGreaterThan(0.25);
    expect(centre(face.box).x).toBeLessThan(0.37);

    // The photo as the cart knows it: the preview's size and the original's pixels.
    const photo = { width: 949, height: 1200, original_width: 3320, original_height: 4200 };
    for (const size of [
      { width_in: 8, height_in: 10 },
      { width_in: 5, height_in: 7 },
      { width_in: 2.5, height_in: 3.5 },
    ]) {
      const start = faceStartCrop(photo, size, face.frame);
      const largest = largestCrop(photo, size);
      // The product's aspect, in the original's pixels (the cart reads the photo's shape from its preview: 949 x 1200 rounds it).
      expect((start.width * photo.original_width) / (start.height * photo.original_height)).toBeCloseTo(size.width_in / size.height_in, 3);
      expect(contains(start, face.box)).toBe(true);
      // Centred near the face across (the centred default is 0.19 further right), and zoomed in on it.
      expect(Math.abs(centre(start).x - centre(face.box).x)).toBeLessThan(0.06);
      expect(Math.abs(centre(largest).x - centre(face.box).x)).toBeGreaterThan(0.15);
      expect(start.width).toBeLessThan(largest.width);
      // The face sits in the top half of the box, as a portrait's does.
      expect((centre(face.box).y - start.y) / start.height).toBeLessThan(0.5);
    }

    // Kept: one row; a second ask reads it (the row, changed here, is what comes back), quickly.
    const db = await getDb();
    const rows = await db.select().from(photoFaces).where(eq(photoFaces.jobFileId, kid.jobFileIds[0]!));
    expect(rows).toHaveLength(1);
    const moved = { ...face.frame, x: face.frame.x + 0.01 };
    await db.update(photoFaces).set({ frame: moved }).where(eq(photoFaces.jobFileId, kid.jobFileIds[0]!));
    const t1 = Date.now();
    const again = await faceOf(kid.token, kid.photoIds[0]!);
    expect(again.json.face.frame).toEqual(moved);
    expect(Date.now() - t1).toBeLessThan(firstMs);

    // No face: null, kept as such, and the crop is the centred default.
    const none = await faceOf(kid.token, kid.photoIds[1]!);
    expect(none.status).toBe(200);
    expect(none.json.face).toBeNull();
    const [noneRow] = await db.select().from(photoFaces).where(eq(photoFaces.jobFileId, kid.jobFileIds[1]!));
    expect(noneRow).toMatchObject({ faceBox: null, frame: null });
    const coffee = { width: 400, height: 267, original_width: 400, original_height: 267 };
    expect(faceStartCrop(coffee, { width_in: 8, height_in: 10 }, none.json.face)).toEqual(largestCrop(coffee, { width_in: 8, height_in: 10 }));

    // Another child's code opens neither photo, and the engine is not run for it.
    expect((await faceOf(other.token, kid.photoIds[0]!)).status).toBe(404);
    expect((await faceOf(kid.token, other.photoIds[0]!)).status).toBe(404);
    expect(await db.select().from(photoFaces).where(eq(photoFaces.jobFileId, other.jobFileIds[0]!))).toHaveLength(0);
  });
});

describe("faces found ahead of the cart", () => {
  it("starts a group photo's crop around every face a print keeps (not the most prominent one alone), at each print's aspect", async () => {
    const owner = await testAccount();
    const studio = await sellingStudio(owner.token);
    const kid = await childWithPhotos(owner.account.id, studio.agencyId, studio.jobId, [fixture("obama_and_biden.jpg")]);
    const res = await call(faceRoute, "GET", `/v1/parent/photos/${kid.photoIds[0]}/face`, { token: kid.token, params: { photoId: kid.photoIds[0]! } });
    expect(res.status).toBe(200);
    const frame = res.json.face.frame as Crop;
    const [row] = await (await getDb()).select().from(photoFaces).where(eq(photoFaces.jobFileId, kid.jobFileIds[0]!));
    // The two men and the girl in front (her face over 40 % of the largest's width); the woman cut by the photo's edge is not kept.
    const group = groupFaces(row!.faces!);
    expect(group).toHaveLength(3);
    const photo = { width: 800, height: 571, original_width: 800, original_height: 571 };
    for (const size of [
      { width_in: 8, height_in: 10 },
      { width_in: 5, height_in: 7 },
      { width_in: 4, height_in: 6 },
    ]) {
      const start = faceStartCrop(photo, size, frame);
      for (const f of group) expect([size, contains(start, f)]).toEqual([size, true]);
    }
  });

  it("opening a gallery with its code finds its photos' faces (and the group gallery's) in a job, once an hour however often the code is entered", async () => {
    const owner = await testAccount();
    const studio = await sellingStudio(owner.token);
    const kid = await childWithPhotos(owner.account.id, studio.agencyId, studio.jobId, [fixture("obama.jpg"), fixture("coffee.jpg")]);
    // The job's class photo: every child's code opens it, and the cart sells it too.
    const group = await groupGalleryWith(owner.account.id, studio.jobId, [fixture("two_people.jpg")]);
    const db = await getDb();
    const sealed = await db.transaction((tx) => reserveAccessCodes(tx, owner.account.id, Number(studio.jobId), [kid.subjectId]));
    const code = openCode(sealed.get(kid.subjectId)!);
    const rowsOf = () => Promise.all([...kid.jobFileIds, ...group.jobFileIds].map((id) => db.select().from(photoFaces).where(eq(photoFaces.jobFileId, id))));
    expect((await rowsOf()).flat()).toHaveLength(0);

    for (let i = 0; i < 3; i++) expect((await enterCode(code)).status).toBe(200);
    const until = Date.now() + 90_000;
    while ((await rowsOf()).flat().length < 3 && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
    const [withFace, without, classPhoto] = await rowsOf();
    // The group gallery's photo too: its two faces.
    expect(classPhoto![0]!.faces).toHaveLength(2);
    // The face engine's answer, kept: obama.jpg has a face near the middle, coffee.jpg none.
    expect(withFace![0]!.faceBox!.x).toBeGreaterThan(0.2);
    expect(withFace![0]!.faceBox!.x + withFace![0]!.faceBox!.width).toBeLessThan(0.8);
    expect(without![0]).toMatchObject({ faceBox: null, frame: null });
    const runs = await db.select().from(jobRuns).where(eq(jobRuns.functionId, "gallery-faces"));
    expect(runs.filter((r) => (r.eventData as { galleryId: string }).galleryId === kid.galleryId)).toHaveLength(1);

    // The cart's ask now reads the kept face: the same box.
    const res = await call(faceRoute, "GET", `/v1/parent/photos/${kid.photoIds[0]}/face`, { token: kid.token, params: { photoId: kid.photoIds[0]! } });
    expect(res.json.face.box).toEqual(withFace![0]!.faceBox);
  });

  it("finds no face in a job whose price sheet sells no print (the face starts a print's crop only): the job runs and looks at nothing", async () => {
    const owner = await testAccount();
    const studio = await sellingStudio(owner.token);
    // The sheet sells the digital file alone.
    const digitalOnly = await call(sheetRoute, "PATCH", `/v1/price-sheets/${studio.sheetId}`, { token: owner.token, params: { id: studio.sheetId }, body: { items: [{ id: "digital", kind: "digital", name: "Digital file", price: 2000, lab_cost: 0 }], packages: [] } });
    expect(digitalOnly.status, digitalOnly.text).toBe(200);
    const kid = await childWithPhotos(owner.account.id, studio.agencyId, studio.jobId, [fixture("obama.jpg")]);
    const db = await getDb();
    const run = await enterCodeAndAwaitGalleryJob(owner.account.id, studio.jobId, kid, 90_000);
    expect([run?.status, run?.output]).toEqual(["completed", { looked_at: 0, found: 0, preview_mattes: 0 }]);
    expect(await db.select().from(photoFaces).where(eq(photoFaces.jobFileId, kid.jobFileIds[0]!))).toHaveLength(0);
  });
});
