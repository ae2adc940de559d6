import { describe, expect, it } from "vitest";
import { SELFIE_SIZE, squareAround } from "./person-crown";

// The crown model's input, sampled straight from the detection copy (no model here).
describe("the square around the head, as the selfie model's input", () => {
  const w = 600;
  const h = 400;
  // Left half red (200, 0, 0), right half blue (0, 0, 100).
  const rgb = Buffer.alloc(w * h * 3);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) rgb.set(x < w / 2 ? [200, 0, 0] : [0, 0, 100], (y * w + x) * 3);
  const img = { rgb, rgbWidth: w, rgbHeight: h };
  const px = (out: Float32Array, u: number, v: number) => Array.from(out.subarray((v * SELFIE_SIZE + u) * 3, (v * SELFIE_SIZE + u) * 3 + 3)).map((c) => Math.round(c * 255));

  it("is 256 × 256 RGB scaled to 0-1, the photo's pixels where the square lies inside it", () => {
    const out = squareAround(img, 100, 20, 360); // columns 100-299 red, 300-459 blue; rows 20-379
    expect(out).toHaveLength(SELFIE_SIZE * SELFIE_SIZE * 3);
    expect(px(out, 10, 10)).toEqual([200, 0, 0]);
    expect(px(out, 245, 245)).toEqual([0, 0, 100]);
    expect(px(out, 100, 255)).toEqual([200, 0, 0]); // the photo's last rows

  });

  it("is grey where the square reaches outside the photo, never the photo's edge repeated", () => {
    const out = squareAround(img, -300, -300, 512); // the upper-left part lies outside
    expect(px(out, 5, 5)).toEqual([128, 128, 128]);
    expect(px(out, 200, 200)).toEqual([200, 0, 0]); // (100, 100) in the photo
    expect(px(out, 200, 5)).toEqual([128, 128, 128]); // above the photo
    expect(px(squareAround(img, 100, 200, 400), 10, 250)).toEqual([128, 128, 128]); // below it
  });
});
