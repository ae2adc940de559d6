import { afterAll, describe, expect, it } from "vitest";
import { detectFaces, FaceInputError, shutDownFaces } from "@/lib/engines/ml/faces";
import { exifRotatedPortrait, faceFixture, iou, onePixelPng, pngHeaderOnly, truncated, type LabelBox } from "@/test/support/face-fixtures";

// Real photos, the real model, in its worker thread: one model load for the whole file.
afterAll(() => shutDownFaces());

/**
 * Faces labelled by hand on the fixtures (pixels of the 800 px copies): hairline or
 * brow to chin, cheek to cheek, ears left out. Tolerance: intersection over union
 * at least 0.5 with the detected face box, which is also where a face box
 * drawn by another person typically lands.
 */
const LABELS: Record<string, LabelBox[]> = {
  "obama.jpg": [{ x: 260, y: 90, w: 170, h: 206 }],
  "obama_and_biden.jpg": [
    { x: 300, y: 165, w: 80, h: 97 }, // Biden
    { x: 452, y: 150, w: 85, h: 100 }, // Obama
    { x: 650, y: 415, w: 70, h: 85 }, // the girl, looking down (the model scores her low)
  ],
  "two_people.jpg": [
    { x: 158, y: 25, w: 120, h: 143 },
    { x: 545, y: 35, w: 135, h: 150 },
  ],
  "obama_partial_face.jpg": [{ x: 0, y: 45, w: 155, h: 260 }],
};
const MIN_IOU = 0.5;

describe("face detection on real photos", () => {
  for (const [name, labels] of Object.entries(LABELS)) {
    it(`finds every face in ${name} where it was labelled`, async () => {
      const result = await detectFaces(faceFixture(name));
      expect(result.faces).toHaveLength(labels.length);
      for (const label of labels) {
        const best = Math.max(...result.faces.map((f) => iou(f.box, label)));
        expect(best, `${name} ${JSON.stringify(label)}`).toBeGreaterThanOrEqual(MIN_IOU);
      }
    });
  }

  it("finds one face in each single portrait, with eyes above the chin and a crown above the eyes", async () => {
    for (const name of ["obama2.jpg", "biden.jpg", "obama-1080p.jpg"]) {
      const { faces, width, height } = await detectFaces(faceFixture(name));
      expect(faces, name).toHaveLength(1);
      const f = faces[0]!;
      expect(f.landmarks.eyeMid.y).toBeLessThan(f.landmarks.chin.y);
      expect(f.landmarks.crown.y).toBeLessThan(f.landmarks.eyeMid.y);
      expect(f.headHeight).toBeGreaterThan(f.box.h); // the crown lies above the mesh's forehead
      expect(f.box.x + f.box.w).toBeLessThanOrEqual(width);
      expect(f.box.y + f.box.h).toBeLessThanOrEqual(height);
    }
  });

  it("orders a group photo most prominent first and keeps the small, low-scored face", async () => {
    const { faces, rawCount } = await detectFaces(faceFixture("obama_and_biden.jpg"));
    expect(rawCount).toBe(3);
    expect(faces[0]!.score).toBeGreaterThan(0.9);
    expect(faces.at(-1)!.score).toBeLessThan(0.6); // the girl comes last
  });

  it("reports a face cut by the frame edge", async () => {
    const { faces } = await detectFaces(faceFixture("obama_partial_face.jpg"));
    expect(faces[0]!.touchesEdge).toBe(true);
    const { faces: whole } = await detectFaces(faceFixture("obama.jpg"));
    expect(whole[0]!.touchesEdge).toBe(false);
  });

  it("decodes an EXIF-rotated photo upright: same size and face as the upright file", async () => {
    const rotated = await detectFaces(await exifRotatedPortrait());
    const upright = await detectFaces(faceFixture("obama.jpg"));
    expect([rotated.width, rotated.height]).toEqual([640, 800]);
    expect(rotated.faces).toHaveLength(1);
    expect(iou(rotated.faces[0]!.box, upright.faces[0]!.box)).toBeGreaterThan(0.85);
    expect(Math.abs(rotated.faces[0]!.roll)).toBeLessThan(5);
  });

  it("finds no face in a photo of a coffee cup", async () => {
    const { faces } = await detectFaces(faceFixture("coffee.jpg"));
    expect(faces).toEqual([]);
  });

  it("refuses what cannot be a photo with a code and a message for people", async () => {
    const cases: [Buffer, string][] = [
      [Buffer.from("just some text, named .jpg"), "UNREADABLE_IMAGE"],
      [truncated(faceFixture("obama.jpg")), "UNREADABLE_IMAGE"],
      [await onePixelPng(), "IMAGE_TOO_SMALL"],
      [pngHeaderOnly(20_000, 20_000), "IMAGE_TOO_LARGE"],
    ];
    for (const [bytes, code] of cases) {
      const err = await detectFaces(bytes).catch((e: unknown) => e);
      expect(err, code).toBeInstanceOf(FaceInputError);
      expect((err as FaceInputError).code).toBe(code);
      expect((err as FaceInputError).message).not.toMatch(/vips|sharp|at \w+ \(/);
    }
  });
});
