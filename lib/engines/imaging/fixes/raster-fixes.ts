import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp, { type Sharp } from "sharp";
import { pressProfilePath } from "./press-profile";
import { DECODE_FAIL_ON } from "@/lib/engines/imaging/image-input";

export type RasterFixType =
  | "upscale_resolution_2x"
  | "upscale_resolution_4x"
  | "add_bleed"
  | "remove_transparency"
  | "sharpen_edges"
  | "resize_to_spec"
  | "convert_color_mode";

export type RasterFormat = "jpeg" | "png" | "tiff";

export type RasterFixSpec = {
  fixTypes: RasterFixType[];
  /** Resolution written into the output and used by resize_to_spec. */
  targetDpi: number;
  /** Trim size in inches; add_bleed and resize_to_spec need it. */
  canvas?: { widthIn: number; heightIn: number };
  bleedMm?: number;
  /** The source's format (the output keeps it unless CMYK forces another). */
  format: RasterFormat;
};

export type AppliedRasterFix = { fixType: RasterFixType; params: Record<string, unknown>; description: string; skipped?: string };

export type RasterFixResult = {
  bytes: Buffer;
  format: RasterFormat;
  mime: string;
  width: number;
  height: number;
  applied: AppliedRasterFix[];
};

const MM_PER_INCH = 25.4;
const MIME: Record<RasterFormat, string> = { jpeg: "image/jpeg", png: "image/png", tiff: "image/tiff" };

/**
 * Print unsharp mask: a small radius (about 1/300 in) so edges get crisper
 * without visible halos; brightening and darkening are capped (y2, y3) so a
 * hard edge never overshoots into a light or dark rim.
 */
export const PRINT_SHARPEN = { sigma: 1, m1: 0.5, m2: 2.5, x1: 2, y2: 5, y3: 8 } as const;

/**
 * Applies raster print fixes with sharp (libvips), in an order where each one
 * works on what the previous left: upright from EXIF, flatten, upscale, bleed,
 * resize to the canvas, sharpen, colour. Every step materialises the pixels
 * (toBuffer) so the next one sees the real size. Full resolution out.
 */
export async function applyRasterFixes(input: Buffer, spec: RasterFixSpec): Promise<RasterFixResult> {
  const want = new Set(spec.fixTypes);
  const applied: AppliedRasterFix[] = [];
  // Always upright: the output drops the EXIF orientation tag, so the pixels must carry it.
  const inputMeta = await sharp(input).metadata();
  const cmyk = inputMeta.space === "cmyk";
  const sourceIcc = inputMeta.icc;
  const load = (bytes: Buffer) => open(bytes, cmyk);
  const materialise = (p: Sharp) => keep(p, cmyk);
  let img = await materialise(load(input).rotate());
  let meta = await sharp(img).metadata();

  if (want.has("remove_transparency")) {
    if (meta.hasAlpha) {
      img = await materialise(load(img).flatten({ background: "#ffffff" }));
      applied.push({ fixType: "remove_transparency", params: { background: "#ffffff" }, description: "Flattened the transparent areas onto white." });
    } else {
      applied.push({ fixType: "remove_transparency", params: {}, description: "The image has no alpha channel.", skipped: "nothing transparent" });
    }
  }

  const resize = want.has("resize_to_spec") && spec.canvas;
  for (const [type, factor] of [["upscale_resolution_2x", 2], ["upscale_resolution_4x", 4]] as const) {
    if (!want.has(type)) continue;
    if (resize) {
      applied.push({ fixType: type, params: { factor }, description: `Not needed: resize_to_spec resamples to ${spec.targetDpi} ppi.`, skipped: "covered by resize_to_spec" });
      continue;
    }
    const w = meta.width! * factor;
    const h = meta.height! * factor;
    img = await materialise(load(img).resize(w, h, { kernel: "lanczos3", fit: "fill" }));
    applied.push({ fixType: type, params: { factor, kernel: "lanczos3", widthPx: w, heightPx: h }, description: `Upscaled ${factor}x with Lanczos resampling to ${w} x ${h} px.` });
  }
  meta = await sharp(img).metadata();

  if (want.has("add_bleed")) {
    if (!spec.canvas || !spec.bleedMm) throw new Error("add_bleed needs the canvas and bleedMm");
    // The bleed at the image's own print resolution, so its shape becomes the canvas plus bleed.
    const pxPerIn = Math.min(meta.width! / spec.canvas.widthIn, meta.height! / spec.canvas.heightIn);
    const px = Math.max(1, Math.ceil((spec.bleedMm / MM_PER_INCH) * pxPerIn - 1e-6));
    img = await materialise(load(img).extend({ top: px, bottom: px, left: px, right: px, extendWith: "mirror" }));
    applied.push({ fixType: "add_bleed", params: { bleedMm: spec.bleedMm, bleedPx: px, method: "mirror" }, description: `Mirrored ${px} px (${spec.bleedMm} mm) of the edges outward on every side.` });
    meta = await sharp(img).metadata();
  }

  if (want.has("resize_to_spec")) {
    if (spec.canvas) {
      const bleedIn = (spec.bleedMm ?? 0) / MM_PER_INCH;
      const w = Math.round((spec.canvas.widthIn + 2 * bleedIn) * spec.targetDpi);
      const h = Math.round((spec.canvas.heightIn + 2 * bleedIn) * spec.targetDpi);
      img = await materialise(load(img).resize(w, h, { kernel: "lanczos3", fit: "cover", position: "centre" }));
      applied.push({
        fixType: "resize_to_spec",
        params: { widthPx: w, heightPx: h, targetDpi: spec.targetDpi, bleedMm: spec.bleedMm ?? 0, crop: "centre" },
        description: `Resized to ${w} x ${h} px (the canvas${bleedIn ? " plus bleed" : ""} at ${spec.targetDpi} ppi), cropped around the centre, upright.`,
      });
    } else {
      applied.push({ fixType: "resize_to_spec", params: {}, description: "Turned upright from its EXIF orientation (no canvas was given, so the size is kept)." });
    }
    meta = await sharp(img).metadata();
  }

  if (want.has("sharpen_edges")) {
    img = await materialise(load(img).sharpen(PRINT_SHARPEN));
    applied.push({ fixType: "sharpen_edges", params: { ...PRINT_SHARPEN }, description: "Sharpened edges with a print unsharp mask (radius 1 px, overshoot capped)." });
  }

  let format = spec.format;
  // withMetadata (the density) must come before the profile: it would otherwise convert to sRGB.
  let pipeline: Sharp = load(img).withMetadata({ density: spec.targetDpi });
  let profile: string | undefined;
  if (want.has("convert_color_mode") && !cmyk) {
    // CMYK cannot be a PNG: a JPEG stays a JPEG, anything else becomes a TIFF.
    if (format === "png") format = "tiff";
    // Alpha has no place in a press file.
    pipeline = pipeline.flatten({ background: "#ffffff" });
    profile = pressProfilePath();
    applied.push({
      fixType: "convert_color_mode",
      params: { profile: "FOGRA39L", intent: "perceptual", outputFormat: format },
      description: `Converted RGB to CMYK through the FOGRA39L press profile (embedded); written as ${format === "jpeg" ? "a CMYK JPEG" : "a CMYK TIFF"}.`,
    });
  } else {
    if (want.has("convert_color_mode")) applied.push({ fixType: "convert_color_mode", params: {}, description: "The image is already CMYK.", skipped: "already CMYK" });
    // The source's own profile goes back in (sharp keeps it only as a file path).
    if (sourceIcc) profile = await tempProfile(sourceIcc);
    else if (cmyk) profile = pressProfilePath();
  }
  if (profile) pipeline = pipeline.withIccProfile(profile);
  if (format === "jpeg") pipeline = pipeline.jpeg({ quality: 95, chromaSubsampling: "4:4:4" });
  else if (format === "png") pipeline = pipeline.png({ compressionLevel: 6 });
  else pipeline = pipeline.tiff({ compression: "lzw", xres: spec.targetDpi / MM_PER_INCH, yres: spec.targetDpi / MM_PER_INCH, resolutionUnit: "inch" });
  try {
    const { data, info } = await pipeline.toBuffer({ resolveWithObject: true });
    return { bytes: data, format, mime: MIME[format], width: info.width, height: info.height, applied };
  } finally {
    if (profile && profile !== pressProfilePath()) await fs.rm(path.dirname(profile), { recursive: true, force: true }).catch(() => {});
  }
}

/** sharp takes an output profile as a file: the source's own is written to a private temporary folder. */
async function tempProfile(icc: Buffer): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "icc-"));
  const file = path.join(dir, "source.icc");
  await fs.writeFile(file, icc);
  return file;
}

/**
 * A CMYK image is processed as CMYK (sharp would otherwise convert it to sRGB).
 * Decoded as strictly as preflight read it (DECODE_FAIL_ON), so a file the check
 * passed is not refused here; no pixel limit, as upscaled steps grow past the input's.
 */
function open(bytes: Buffer, cmyk: boolean): Sharp {
  const s = sharp(bytes, { limitInputPixels: false, failOn: DECODE_FAIL_ON });
  return cmyk ? s.pipelineColourspace("cmyk") : s;
}

/** Runs the pipeline so far to an uncompressed TIFF in memory (the next step needs its real size), colour space and profile kept. */
async function keep(pipeline: Sharp, cmyk: boolean): Promise<Buffer> {
  return (cmyk ? pipeline.toColourspace("cmyk") : pipeline).keepIccProfile().tiff({ compression: "none" }).toBuffer();
}
