import { afterAll, describe, expect, it } from "vitest";
import sharp from "sharp";
import { detectFaces, shutDownFaces } from "@/lib/engines/ml/faces";
import { CUT_CROWN_SHARE, cropFace, FaceCutError, FaceTooSmallForPrintError, minimumForPrint, fillShare, MAX_FILL_SHARE, NoFaceError, recropManual, TooMuchPaddingError } from "./crop-face";
import { planPadding } from "./plan-crop";
import { ICP_TYPES, PRESETS } from "./presets";
import { exifRotatedPortrait, faceFixture, headNearTheTop, littleRoomAboveHair, roomyPortrait, smallFaceInFrame } from "@/test/support/face-fixtures";

// The real engine in its worker thread, one model load for the file. Each crop is
// checked by detecting the face again on the output: the head height and the eye
// line must land on the preset within its tolerance, and the tilt must be gone.
afterAll(() => shutDownFaces());

async function measure(jpeg: Buffer) {
  const { width, height, faces } = await detectFaces(jpeg, { crown: true });
  const f = faces[0]!;
  return { width, height, headShare: f.headHeight / height, eyeLine: f.landmarks.eyeMid.y / height, roll: f.roll, centreX: (f.landmarks.eyeMid.x + f.landmarks.chin.x) / 2 / width };
}

describe("face crop to the presets", () => {
  for (const icp of ICP_TYPES) {
    it(`${icp}: head height and eye line on the preset, measured on the output`, async () => {
      const preset = PRESETS[icp];
      const out = await cropFace(await roomyPortrait(), icp, false);
      expect(out.facesFound).toBe(1);
      expect(out.plan.edge).toBe("none");
      const m = await measure(out.rendered.original);
      expect(m.width / m.height).toBeCloseTo(preset.aspect.w / preset.aspect.h, 2);
      expect(Math.abs(m.headShare - preset.headShare)).toBeLessThanOrEqual(preset.tolerance);
      expect(Math.abs(m.eyeLine - preset.eyeLine)).toBeLessThanOrEqual(preset.tolerance);
      expect(Math.abs(m.centreX - preset.centreX)).toBeLessThanOrEqual(preset.tolerance);
      const medium = await sharp(out.rendered.medium).metadata();
      expect(Math.max(medium.width!, medium.height!)).toBeLessThanOrEqual(800);
    });
  }

  it("levels a tilted head (biden.jpg rolls 9°) and keeps the geometry", async () => {
    const out = await cropFace(faceFixture("biden.jpg"), "childcare", false);
    expect(Math.abs(out.face.roll)).toBeGreaterThan(5);
    expect(Math.abs(out.plan.angle - out.face.roll)).toBeLessThan(0.01);
    const m = await measure(out.rendered.original);
    expect(Math.abs(m.roll)).toBeLessThan(3);
  });

  it("crops an EXIF-rotated photo like the upright one", async () => {
    const a = await cropFace(await exifRotatedPortrait(), "school", false);
    const b = await cropFace(faceFixture("obama.jpg"), "school", false);
    expect(Math.abs(a.plan.centre.x - b.plan.centre.x)).toBeLessThan(8);
    expect(Math.abs(a.plan.centre.y - b.plan.centre.y)).toBeLessThan(8);
    const [ma, mb] = [await measure(a.rendered.original), await measure(b.rendered.original)];
    expect(Math.abs(ma.eyeLine - mb.eyeLine)).toBeLessThanOrEqual(0.01);
    expect(Math.abs(ma.headShare - mb.headShare)).toBeLessThanOrEqual(0.01);
  });

  it("crops the most prominent face of a group and reports how many were found", async () => {
    const out = await cropFace(faceFixture("obama_and_biden.jpg"), "corporate", false);
    expect(out.facesFound).toBe(3);
    expect(out.face.score).toBeGreaterThan(0.9);
  });

  it("sports, head near the top of the photo: pads the canvas instead of zooming, and the whole head is in the crop (detected again)", async () => {
    // obama.jpg with its top 8 px cut off: the crown, marked by hand at y 21 (test/fixtures/faces/landmarks.json, ±3 px), sits 13 px below the photo's top.
    const src = await headNearTheTop();
    const preset = PRESETS.sports;
    const out = await cropFace(src, "sports", false);
    // Within 5 % of crown-to-chin (issue 37's goal is 10 %): the matte's square scales with the eye-to-chin distance.
    expect(Math.abs(out.face.landmarks.crown.y - 13)).toBeLessThan(0.05 * out.face.headHeight);
    expect(out.plan.edge).toBe("padded");
    expect(out.rendered.padding.top).toBeGreaterThan(50);
    // Measured as Face Crop measures a head (the crown from the person matte, eyes and chin from the jaw net), as `measure` does.
    const { width, height, faces } = await detectFaces(out.rendered.original, { crown: true });
    const f = faces[0]!;
    expect(f.touchesEdge).toBe(false);
    expect(f.crownTouchesEdge).toBe(false);
    // Crown to chin inside the frame with the preset's margin above the crown (eye line − half the head), within its tolerance.
    const crownMargin = (preset.eyeLine - preset.headShare / 2 - preset.tolerance) * height;
    expect(f.landmarks.crown.y).toBeGreaterThanOrEqual(crownMargin);
    expect(f.landmarks.chin.y).toBeLessThan(height - 0.3 * height);
    expect(f.box.x).toBeGreaterThan(0.05 * width);
    expect(f.box.x + f.box.w).toBeLessThan(0.95 * width);
    // Not zoomed: the head is the preset's size and the eyes on its line.
    expect(Math.abs(f.headHeight / height - preset.headShare)).toBeLessThanOrEqual(preset.tolerance);
    expect(Math.abs(f.landmarks.eyeMid.y / height - preset.eyeLine)).toBeLessThanOrEqual(preset.tolerance);
    // The fill is the photo's own edge, blurred: no white bar.
    const top = await sharp(out.rendered.original).extract({ left: 0, top: 0, width, height: 20 }).stats();
    expect(top.channels.slice(0, 3).every((c) => c.mean < 245)).toBe(true);
  });

  it("fails a face the photo itself cuts (face at the edge, or the crown well outside)", async () => {
    await expect(cropFace(faceFixture("obama_partial_face.jpg"), "sports", false)).rejects.toBeInstanceOf(FaceCutError);
    const crownOutside = await sharp(faceFixture("obama.jpg")).extract({ left: 0, top: 60, width: 640, height: 740 }).jpeg().toBuffer();
    await expect(cropFace(crownOutside, "school", false)).rejects.toMatchObject({ code: "FACE_CUT_BY_EDGE" });
  });

  it("refuses a frame that would be mostly fill: obama2.jpg (a narrow head-and-shoulders photo) for sports; the school frame fits", async () => {
    const err = await cropFace(faceFixture("obama2.jpg"), "sports", false).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TooMuchPaddingError);
    expect((err as TooMuchPaddingError).share).toBeGreaterThan(MAX_FILL_SHARE);
    const near = await cropFace(await headNearTheTop(), "sports", false);
    expect(fillShare(planPadding(near.plan, { width: near.width, height: near.height }), near.plan.w, near.plan.h)).toBeLessThanOrEqual(MAX_FILL_SHARE);
  });

  it("reads the crown from the person's outline: a whole head with a little room above the hair is cropped, not refused (issue 37)", async () => {
    const src = await littleRoomAboveHair();
    const estimate = (await detectFaces(src)).faces[0]!;
    // The estimate alone lies outside the photo by more than the old slack: it used to be FACE_CUT_BY_EDGE.
    expect(estimate.landmarks.crown.y).toBeLessThan(-CUT_CROWN_SHARE * estimate.headHeight);
    const out = await cropFace(src, "corporate", false);
    expect(out.face.crownSource).toBe("matte");
    expect(out.face.crownTouchesEdge).toBe(false);
    expect(out.face.landmarks.crown.y).toBeGreaterThan(0);
    expect(out.face.landmarks.crown.y).toBeLessThan(20);
    // The whole head is in the delivered crop: the outline's top is found again inside it, below the top edge.
    const again = (await detectFaces(out.rendered.original, { crown: true })).faces[0]!;
    expect(again.crownSource).toBe("matte");
    expect(again.crownTouchesEdge).toBe(false);
    expect(again.landmarks.crown.y).toBeGreaterThan(0.02 * out.rendered.height);
  });

  it("refuses the same head when the frame cuts its hair (biden.jpg, the hair marked at y 37: cut by 8 and 13 px)", async () => {
    for (const top of [45, 50]) {
      const cut = await sharp(faceFixture("biden.jpg")).extract({ left: 0, top, width: 352, height: 800 - top }).jpeg({ quality: 92 }).toBuffer();
      await expect(cropFace(cut, "corporate", false)).rejects.toMatchObject({ code: "FACE_CUT_BY_EDGE" });
    }
  });

  it("crops the whole face, not the larger one the photo's edge cuts (a small subject beside a cut face at the border)", async () => {
    const photo = await smallFaceInFrame(0.03, { at: { x: 0.66, y: 0.4 }, cutAtLeft: true });
    const out = await cropFace(photo, "school", false);
    expect(out.facesFound).toBe(2);
    expect(out.face.touchesEdge).toBe(false);
    expect(out.face.box.x).toBeGreaterThan(900);
  });

  it("reports no face for a photo without one", async () => {
    await expect(cropFace(faceFixture("coffee.jpg"), "school", false)).rejects.toBeInstanceOf(NoFaceError);
  });

  it("enhance enlarges a crop smaller than the print size and sharpens it", async () => {
    const out = await cropFace(faceFixture("obama.jpg"), "school", true);
    expect(out.rendered.enhancement).toBe("upscaled_lanczos_sharpened");
    expect([out.rendered.width, out.rendered.height]).toEqual([1200, 1500]);
  });

  it("with enhance, a face too small for the print is refused with the size it would need; without enhance it is cropped", async () => {
    const tiny = await sharp(faceFixture("obama.jpg")).resize(200, 250).jpeg().toBuffer();
    const err = await cropFace(tiny, "school", true).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FaceTooSmallForPrintError);
    expect(err).toMatchObject({ code: "FACE_TOO_SMALL_FOR_PRINT", needed: minimumForPrint("school") });
    expect(minimumForPrint("school")).toEqual({ w: 300, h: 375, headPx: 188 });
    expect((err as FaceTooSmallForPrintError).crop.h).toBeLessThan(375);
    const plain = await cropFace(tiny, "school", false);
    expect(plain.rendered.enhancement).toBe("none");
  });

  it("a speaker at a podium: a face of 5 % of a 1920 px frame is cropped, and with enhance refused as too small for the print, naming the size it needs (issue 37)", async () => {
    const photo = await smallFaceInFrame(0.05, { frame: { width: 1920, height: 1080 }, at: { x: 0.5, y: 0.35 } });
    const plain = await cropFace(photo, "school", false);
    expect(plain.face.box.w / 1920).toBeGreaterThan(0.035);
    expect(plain.face.crownSource).toBe("matte");
    const err = await cropFace(photo, "school", true).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FaceTooSmallForPrintError);
    expect(err).toMatchObject({ code: "FACE_TOO_SMALL_FOR_PRINT", needed: minimumForPrint("school") });
    expect((err as Error).message).toMatch(/at least 300 × 375 px/);
  });

  it("renders a window drawn by hand", async () => {
    const { plan, rendered } = await recropManual(faceFixture("obama.jpg"), { width: 640, height: 800 }, { x: 100, y: 50, w: 400, h: 500 }, "school", false);
    expect(plan.edge).toBe("none");
    expect(rendered.padding).toEqual({ top: 0, right: 0, bottom: 0, left: 0 });
    expect([rendered.width, rendered.height]).toEqual([400, 500]);
  });
});
