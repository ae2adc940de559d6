import { afterAll, describe, expect, it } from "vitest";
import sharp from "sharp";
import { detectFaces, shutDownFaces } from "@/lib/ml/faces";
import { cropFace, NoFaceError, recropManual } from "./crop-face";
import { ICP_TYPES, PRESETS } from "./presets";
import { exifRotatedPortrait, faceFixture, roomyPortrait } from "@/test/support/face-fixtures";

// The real engine in its worker thread, one model load for the file. Each crop is
// checked by detecting the face again on the output: the head height and the eye
// line must land on the preset within its tolerance, and the tilt must be gone.
afterAll(() => shutDownFaces());

async function measure(jpeg: Buffer) {
  const { width, height, faces } = await detectFaces(jpeg);
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

  it("shifts (never pads) when the face is cut by the frame edge, and says so", async () => {
    const out = await cropFace(faceFixture("obama_partial_face.jpg"), "sports", false);
    expect(out.plan.edge).not.toBe("none");
    const { data, info } = await sharp(out.rendered.original).raw().toBuffer({ resolveWithObject: true });
    // No invented white margin: the first and last columns are photo, not fill.
    const column = (x: number) => {
      let white = 0;
      for (let y = 0; y < info.height; y++) if (data[(y * info.width + x) * 3]! > 250 && data[(y * info.width + x) * 3 + 1]! > 250) white++;
      return white / info.height;
    };
    expect(column(0)).toBeLessThan(0.5);
  });

  it("reports no face for a photo without one", async () => {
    await expect(cropFace(faceFixture("coffee.jpg"), "school", false)).rejects.toBeInstanceOf(NoFaceError);
  });

  it("enhance enlarges a crop smaller than the print size and sharpens it", async () => {
    const out = await cropFace(faceFixture("obama.jpg"), "school", true);
    expect(out.rendered.enhancement).toBe("upscaled_lanczos_sharpened");
    expect([out.rendered.width, out.rendered.height]).toEqual([1200, 1500]);
  });

  it("renders a window drawn by hand", async () => {
    const { plan, rendered } = await recropManual(faceFixture("obama.jpg"), { width: 640, height: 800 }, { x: 100, y: 50, w: 400, h: 500 }, "school", false);
    expect(plan.edge).toBe("none");
    expect([rendered.width, rendered.height]).toEqual([400, 500]);
  });
});
