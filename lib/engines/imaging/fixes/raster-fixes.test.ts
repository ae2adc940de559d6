import { describe, expect, it } from "vitest";
import sharp from "sharp";
import { readIccProfile } from "@/lib/engines/imaging/icc-profile";
import { cmykTiff, iccProfiles } from "../../../../test/fixtures/preflight/raster-fixtures";
import { applyRasterFixes } from "./raster-fixes";

describe("applyRasterFixes on a CMYK source", () => {
  it("stays CMYK with its own profile through a bleed; convert_color_mode is skipped as already CMYK", async () => {
    const { cmyk } = await iccProfiles();
    const src = cmykTiff({ width: 600, height: 480, bits: 8, icc: cmyk });
    const out = await applyRasterFixes(src, { fixTypes: ["add_bleed", "convert_color_mode"], targetDpi: 300, canvas: { widthIn: 2, heightIn: 1.6 }, bleedMm: 3, format: "tiff" });
    const meta = await sharp(out.bytes).metadata();
    expect([meta.space, meta.channels, meta.width, meta.height, meta.density]).toEqual(["cmyk", 4, 672, 552, 300]);
    expect(readIccProfile(meta.icc!)?.description).toBe(readIccProfile(cmyk)?.description);
    expect(out.applied.map((a) => a.skipped ?? a.fixType)).toEqual(["add_bleed", "already CMYK"]);
  });
});
