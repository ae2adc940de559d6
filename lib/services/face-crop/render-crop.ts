import sharp from "sharp";
import { planCorners, type CropPlan } from "./plan-crop";
import { printPixels, type CropPreset } from "./presets";

/** The web-size output's long edge. */
export const MEDIUM_LONG_EDGE = 800;

export type Enhancement = "none" | "sharpened" | "upscaled_lanczos_sharpened" | "super_resolution_2x";

export type RenderedCrop = {
  original: Buffer;
  medium: Buffer;
  width: number;
  height: number;
  enhancement: Enhancement;
};

/**
 * Cuts a plan out of the photo at the source's full resolution (`original`, JPEG)
 * and a web copy (`medium`, 800 px on the long edge). The turned window is cut
 * in two steps: the region around it, levelled, then the window itself, so a
 * 24 MP photo is never rotated whole.
 *
 * `enhance` (see docs/api.md): a crop with fewer pixels than the preset's print
 * size at 300 ppi is enlarged to that size first: by 2x super-resolution when a
 * `superResolver` is given (job runner only) and the crop is small enough for it,
 * then Lanczos for the rest; otherwise by Lanczos alone. Every enhanced crop then
 * gets an unsharp mask tuned for print.
 */
export type SuperResolver = { upscale2x: (rgb: Uint8Array, width: number, height: number) => Promise<Uint8Array>; maxInputPixels: number };

export async function renderCrop(
  bytes: Buffer,
  size: { width: number; height: number },
  plan: CropPlan,
  opts: { enhance: boolean; preset: CropPreset; superResolver?: SuperResolver },
): Promise<RenderedCrop> {
  const corners = planCorners(plan);
  const bx0 = clamp(Math.floor(Math.min(...corners.map((p) => p.x))), 0, size.width - 1);
  const by0 = clamp(Math.floor(Math.min(...corners.map((p) => p.y))), 0, size.height - 1);
  const bx1 = clamp(Math.ceil(Math.max(...corners.map((p) => p.x))), bx0 + 1, size.width);
  const by1 = clamp(Math.ceil(Math.max(...corners.map((p) => p.y))), by0 + 1, size.height);
  const region = { left: bx0, top: by0, width: bx1 - bx0, height: by1 - by0 };

  // Materialised once: the region is about the size of the crop, never the whole photo.
  let first = (await uprightSource(bytes)).extract(region);
  if (Math.abs(plan.angle) > 0.05) first = sharp(await first.png({ compressionLevel: 0 }).toBuffer()).rotate(-plan.angle, { background: "#ffffff" });
  const levelled = await first.removeAlpha().toColourspace("srgb").raw().toBuffer({ resolveWithObject: true });
  const canvasW = levelled.info.width;
  const canvasH = levelled.info.height;
  let pipeline = sharp(levelled.data, { raw: { width: canvasW, height: canvasH, channels: 3 } });
  // The plan's centre, in the levelled region's pixels (the region's centre stays the canvas centre).
  const a = (-plan.angle * Math.PI) / 180;
  const dx = plan.centre.x - (region.left + region.width / 2);
  const dy = plan.centre.y - (region.top + region.height / 2);
  const cx = canvasW / 2 + dx * Math.cos(a) - dy * Math.sin(a);
  const cy = canvasH / 2 + dx * Math.sin(a) + dy * Math.cos(a);
  const w = clamp(Math.round(plan.w), 1, canvasW);
  const h = clamp(Math.round(plan.h), 1, canvasH);
  const left = clamp(Math.round(cx - w / 2), 0, canvasW - w);
  const top = clamp(Math.round(cy - h / 2), 0, canvasH - h);
  pipeline = pipeline.extract({ left, top, width: w, height: h });

  let enhancement: Enhancement = "none";
  let outW = w;
  let outH = h;
  if (opts.enhance) {
    const need = printPixels(opts.preset);
    if (w < need.w || h < need.h) {
      const k = Math.max(need.w / w, need.h / h);
      // A crop differs from the preset's aspect only by pixel rounding: land on the exact print size.
      const snap = (v: number, target: number) => (Math.abs(v - target) <= target * 0.01 ? target : Math.round(v));
      outW = snap(w * k, need.w);
      outH = snap(h * k, need.h);
      let raw: Uint8Array = await pipeline.raw().toBuffer();
      let rw = w;
      let rh = h;
      if (opts.superResolver && w * h <= opts.superResolver.maxInputPixels) {
        raw = await opts.superResolver.upscale2x(raw, w, h);
        rw = w * 2;
        rh = h * 2;
        enhancement = "super_resolution_2x";
      } else enhancement = "upscaled_lanczos_sharpened";
      pipeline = sharp(raw, { raw: { width: rw, height: rh, channels: 3 } }).resize(outW, outH, { kernel: "lanczos3" });
    } else enhancement = "sharpened";
    pipeline = pipeline.sharpen({ sigma: 1, m1: 0.5, m2: 2 });
  }
  const original = await pipeline.jpeg({ quality: 92, chromaSubsampling: "4:4:4" }).toBuffer();
  const k = Math.min(1, MEDIUM_LONG_EDGE / Math.max(outW, outH));
  const medium = await sharp(original).resize(Math.max(1, Math.round(outW * k)), Math.max(1, Math.round(outH * k))).jpeg({ quality: 85 }).toBuffer();
  return { original, medium, width: outW, height: outH, enhancement };
}

/**
 * sharp applies an extract before the EXIF turn when both are in one pipeline, so
 * a photo with an orientation tag is turned into upright pixels first.
 */
async function uprightSource(bytes: Buffer): Promise<sharp.Sharp> {
  const { orientation } = await sharp(bytes, { limitInputPixels: false }).metadata();
  if (!orientation || orientation === 1) return sharp(bytes, { limitInputPixels: false });
  const { data, info } = await sharp(bytes, { limitInputPixels: false }).autoOrient().raw().toBuffer({ resolveWithObject: true });
  return sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));
