import sharp from "sharp";
import { exifOrientation, openImage } from "@/lib/engines/imaging/image-input";
import { planCorners, planPadding, type CropPlan, type Padding } from "./plan-crop";
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
  /** Fill added outside the photo, per side, in output pixels (all 0 when the frame lies inside). */
  padding: Padding;
};

/**
 * Cuts a plan out of the photo at the source's full resolution (`original`, JPEG)
 * and a web copy (`medium`, 800 px on the long edge). The turned window is cut
 * in two steps: the region around it, levelled, then the window itself, so a
 * 24 MP photo is never rotated whole.
 *
 * Where the frame reaches outside the photo, the canvas is extended: the photo's
 * edge pixels are repeated outward and blurred, so the fill reads as out-of-focus
 * background continuing the photo's own edge (no white bars, no mirrored heads).
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
  const bx0 = Math.floor(Math.min(...corners.map((p) => p.x)));
  const by0 = Math.floor(Math.min(...corners.map((p) => p.y)));
  const bx1 = Math.max(bx0 + 1, Math.ceil(Math.max(...corners.map((p) => p.x))));
  const by1 = Math.max(by0 + 1, Math.ceil(Math.max(...corners.map((p) => p.y))));
  // The window's bounding region, possibly reaching outside the photo; the part inside is cut.
  const region = { left: bx0, top: by0, width: bx1 - bx0, height: by1 - by0 };
  const inside = { left: clamp(bx0, 0, size.width - 1), top: clamp(by0, 0, size.height - 1) };
  const insideW = clamp(bx1, inside.left + 1, size.width) - inside.left;
  const insideH = clamp(by1, inside.top + 1, size.height) - inside.top;
  const photo = await (await uprightSource(bytes, size.width * size.height))
    .extract({ ...inside, width: insideW, height: insideH })
    .removeAlpha()
    .toColourspace("srgb")
    .raw()
    .toBuffer({ resolveWithObject: true });
  const ext = { top: inside.top - by0, left: inside.left - bx0, bottom: by1 - (inside.top + insideH), right: bx1 - (inside.left + insideW) };
  type Raw = { data: Buffer; info: { width: number; height: number; channels: number } };
  const rawOf = (info: Raw["info"]) => ({ raw: { width: info.width, height: info.height, channels: info.channels as 1 | 2 | 3 | 4 } });
  let regionRaw: Raw = photo;
  if (ext.top > 0 || ext.left > 0 || ext.bottom > 0 || ext.right > 0) {
    const sigma = clamp(Math.max(ext.top, ext.left, ext.bottom, ext.right) / 12, 2, 40);
    const fill = await sharp(photo.data, rawOf(photo.info))
      .extend({ top: Math.max(0, ext.top), left: Math.max(0, ext.left), bottom: Math.max(0, ext.bottom), right: Math.max(0, ext.right), extendWith: "copy" })
      .blur(sigma)
      .raw()
      .toBuffer({ resolveWithObject: true });
    regionRaw = await sharp(fill.data, rawOf(fill.info))
      .composite([{ input: photo.data, ...rawOf(photo.info), left: Math.max(0, ext.left), top: Math.max(0, ext.top) }])
      .raw()
      .toBuffer({ resolveWithObject: true });
  }

  // Materialised once: the region is about the size of the crop, never the whole photo.
  let first = sharp(regionRaw.data, rawOf(regionRaw.info));
  if (Math.abs(plan.angle) > 0.05) first = sharp(await first.png({ compressionLevel: 0 }).toBuffer()).rotate(-plan.angle, { background: "#ffffff" });
  // Composite and rotate may add an alpha channel: the window is cut from 3-channel sRGB.
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
  const pad = planPadding(plan, size);
  const scale = (v: number, total: number, out: number) => Math.round((v / total) * out);
  const padding = { top: scale(pad.top, plan.h, outH), right: scale(pad.right, plan.w, outW), bottom: scale(pad.bottom, plan.h, outH), left: scale(pad.left, plan.w, outW) };
  return { original, medium, width: outW, height: outH, enhancement, padding };
}

/**
 * sharp applies an extract before the EXIF turn when both are in one pipeline, so
 * a photo with an orientation tag is turned into upright pixels first. The face
 * engine has read this photo already (its `pixels`): it is decoded the same way.
 */
async function uprightSource(bytes: Buffer, pixels: number): Promise<sharp.Sharp> {
  const { orientation } = await sharp(bytes, { limitInputPixels: false }).metadata();
  if (exifOrientation(orientation) === 1) return openImage(bytes, pixels);
  const { data, info } = await openImage(bytes, pixels).autoOrient().raw().toBuffer({ resolveWithObject: true });
  return sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));
