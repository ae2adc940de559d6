import { describe, expect, it } from "vitest";
import { initialBox } from "./crop-editor";

describe("the Adjust dialog's first window", () => {
  it("is the current crop when it lies inside the photo", () => {
    expect(initialBox({ crop_box: { x: 100, y: 50, w: 400, h: 500 }, source: { width: 1000, height: 800 } } as never)).toEqual({ x: 100, y: 50, w: 400, h: 500 });
  });

  it("keeps the crop's centre and aspect when the crop reaches past the photo, instead of the whole photo", () => {
    // A padded 4:5 crop 1000 × 1250 around (500, 450) in a 1000 × 800 photo.
    const box = initialBox({ crop_box: { x: 0, y: -175, w: 1000, h: 1250 }, source: { width: 1000, height: 800 } } as never);
    expect(box.w / box.h).toBeCloseTo(0.8);
    expect(box).toEqual({ x: 180, y: 0, w: 640, h: 800 });
  });
});
