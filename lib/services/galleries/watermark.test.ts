import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { PREVIEW_MAX_PX, renderWatermarkedPreview } from "./watermark";

/** A flat mid-grey photo larger than a preview, as a camera JPEG. */
const photo = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: { r: 120, g: 120, b: 120 } } }).jpeg().toBuffer();

describe("watermarked previews", () => {
  it("are at most 1,200 px and carry the text across the picture", async () => {
    const out = await renderWatermarkedPreview(await photo(3000, 2000), { text: "Maple Studio" });
    expect([out.width, out.height]).toEqual([PREVIEW_MAX_PX, 800]);
    const meta = await sharp(out.jpeg).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["jpeg", 1200, 800]);
    // A flat grey photo gets lighter and darker pixels only from the watermark, in every quarter.
    const { data, info } = await sharp(out.jpeg).greyscale().raw().toBuffer({ resolveWithObject: true });
    for (const [qx, qy] of [[0, 0], [1, 0], [0, 1], [1, 1]] as const) {
      let marked = 0;
      for (let y = qy * 400; y < qy * 400 + 400; y += 2) for (let x = qx * 600; x < qx * 600 + 600; x += 2) if (Math.abs(data[y * info.width + x]! - 120) > 25) marked++;
      expect(marked, `quarter ${qx},${qy}`).toBeGreaterThan(500);
    }
  });

  it("composites a logo instead of the text, and keeps small photos at their size", async () => {
    const logo = await sharp({ create: { width: 200, height: 100, channels: 4, background: { r: 255, g: 0, b: 0, alpha: 1 } } }).png().toBuffer();
    const out = await renderWatermarkedPreview(await photo(600, 900), { logo });
    expect([out.width, out.height]).toEqual([600, 900]);
    const { data, info } = await sharp(out.jpeg).raw().toBuffer({ resolveWithObject: true });
    const at = (x: number, y: number) => Array.from(data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3));
    const [r, g] = at(300, 450);
    expect(r! - g!).toBeGreaterThan(50); // red logo over the centre
    expect(at(5, 5)).toEqual(expect.arrayContaining([expect.any(Number)]));
    const [r0, g0] = at(5, 5);
    expect(Math.abs(r0! - g0!)).toBeLessThan(10); // corners untouched
  });
});
