import { describe, expect, it } from "vitest";
import { dpiScore, starsFor, STAR_BANDS } from "./dpi-score";
import { PRODUCT_RESOLUTION } from "./product-types";

describe("dpi score", () => {
  it("is monotonic in effectivePpi / minPpi over a fine sweep", () => {
    let last = 0;
    for (let r = 0; r <= 3; r += 0.001) {
      const { stars } = starsFor(r);
      expect(stars).toBeGreaterThanOrEqual(last);
      last = stars;
    }
  });

  it("has one label per star count, bands descending", () => {
    expect(STAR_BANDS.map((b) => b.stars)).toEqual([5, 4, 3, 2, 1]);
    for (let i = 1; i < STAR_BANDS.length; i++) expect(STAR_BANDS[i]!.fromRatio).toBeLessThan(STAR_BANDS[i - 1]!.fromRatio);
  });

  it("follows the viewing-distance rule within rounding (1719 / distance)", () => {
    for (const { minPpi, viewingDistanceIn } of Object.values(PRODUCT_RESOLUTION)) {
      expect(Math.abs(minPpi - 1719 / viewingDistanceIn) / minPpi).toBeLessThan(0.1);
    }
  });

  it("rounds effectivePpi to one decimal", () => {
    expect(dpiScore({ widthPx: 1000, heightPx: 1000, canvasWidthInches: 3, canvasHeightInches: 3, productType: "poster" }).effectivePpi).toBe(333.3);
  });
});
