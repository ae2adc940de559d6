import { afterAll, describe, expect, it } from "vitest";
import { detectFaces, shutDownFaces } from "@/lib/engines/ml/faces";
import { decodeUpright } from "./decode-upright";
import { detectOnImage, needsSecondLook } from "./detect-in-thread";
import { faceFixture, smallFaceInFrame } from "@/test/support/face-fixtures";

// Small faces in a large frame: the whole-frame pass, then the tiled second look
// (detect-in-thread.ts). Real photos (obama.jpg, MIT; coffee.jpg, CC0) composed at test
// time: a portrait shrunk so its face is a given share of a 1600 px wide frame.
afterAll(() => shutDownFaces());

const cfg = { maxPixels: 60e6, detectLongEdge: 1024 };

describe("small faces: the second look", () => {
  it("finds a face of 1.5 % of the frame's width that the whole-frame pass misses", async () => {
    const photo = await smallFaceInFrame(0.015);
    const first = await detectOnImage(await decodeUpright(photo, cfg), 0.25);
    expect(first.faces).toHaveLength(0);
    expect(needsSecondLook(first.faces, { width: 1600, height: 1000 })).toBe(true);
    const { faces } = await detectFaces(photo);
    expect(faces).toHaveLength(1);
    const f = faces[0]!;
    // Where the portrait was put: centred across, its face about 24 px wide.
    expect(Math.abs(f.box.x + f.box.w / 2 - 800)).toBeLessThan(20);
    expect(f.box.w).toBeGreaterThan(15);
    expect(f.box.w).toBeLessThan(40);
  });

  it("finds faces of 5 % and 8 % of the frame's width, in the middle and near a corner", async () => {
    for (const share of [0.05, 0.08]) {
      for (const at of [{ x: 0.5, y: 0.3 }, { x: 0.1, y: 0.05 }]) {
        const { faces } = await detectFaces(await smallFaceInFrame(share, { frame: { width: 1920, height: 1080 }, at }));
        expect(faces.length, `${share} at ${at.x},${at.y}`).toBe(1);
        expect(faces[0]!.box.w / 1920).toBeGreaterThan(share * 0.7);
      }
    }
  });

  it("looks again when the first pass finds only a face the edge cuts, and puts the small whole face first", async () => {
    const photo = await smallFaceInFrame(0.02, { at: { x: 0.66, y: 0.4 }, cutAtLeft: true });
    const first = await detectOnImage(await decodeUpright(photo, cfg), 0.25);
    expect(first.faces.map((f) => f.touchesEdge)).toEqual([true]);
    const { faces } = await detectFaces(photo);
    expect(faces.map((f) => f.touchesEdge)).toEqual([false, true]);
    expect(Math.abs(faces[0]!.box.x + faces[0]!.box.w / 2 - 1056)).toBeLessThan(25);
  });

  it("does not look again when a whole face was found away from the edge", async () => {
    const first = await detectOnImage(await decodeUpright(faceFixture("obama.jpg"), cfg), 0.25);
    expect(needsSecondLook(first.faces, { width: 640, height: 800 })).toBe(false);
  });
});
