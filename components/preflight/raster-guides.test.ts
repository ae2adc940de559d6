import { describe, expect, it } from "vitest";
import { rasterGuides } from "./raster-guides";

describe("raster guides", () => {
  it("puts the trim one bleed inside a file sized for canvas plus bleed", () => {
    const g = rasterGuides(3071, 2471, { widthIn: 10, heightIn: 8 }, 3, false)!;
    expect(g.pxPerIn).toBeCloseTo(300, 0);
    expect(g.bleed!.width).toBeCloseTo(3071, 0);
    expect(g.trim.x).toBeCloseTo(35.4, 0);
    expect(g.trim.width).toBeCloseTo(3000, 0);
    // 3 mm at 300 ppi, as the PDF viewer and the check's messages (it was 1/8 in, 37.5 px, here alone).
    expect(g.safe.x - g.trim.x).toBeCloseTo(35.4, 0);
  });

  it("uses the canvas alone when the bleed is missing, and crops the long side to the centre", () => {
    const g = rasterGuides(3600, 2400, { widthIn: 10, heightIn: 8 }, 3, true)!;
    expect(g.bleed).toBeUndefined();
    expect(g.trim).toEqual({ x: 300, y: 0, width: 3000, height: 2400 });
  });

  it("draws nothing without a canvas", () => {
    expect(rasterGuides(100, 100, undefined, 0, false)).toBeUndefined();
  });
});
