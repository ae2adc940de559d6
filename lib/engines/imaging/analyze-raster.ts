import sharp from "sharp";
import { DECODE_FAIL_ON, exifOrientation, uprightSize } from "./image-input";
import { readIccProfile, type IccProfileInfo } from "./icc-profile";
import { renderPreview, type RasterPreview } from "./render-preview";

export type RasterColorMode = "rgb" | "cmyk" | "gray" | "lab" | "other";

export type RasterAnalysis =
  | { kind: "unreadable"; reason: string }
  | {
      kind: "ok";
      format: string;
      /** Size as displayed, after the EXIF orientation is applied. */
      widthPx: number;
      heightPx: number;
      /** EXIF orientation 1..8 (1 = upright). */
      orientation: number;
      colorMode: RasterColorMode;
      /** libvips' interpretation ("srgb", "cmyk", "b-w", "rgb16", "grey16" ...). */
      space: string;
      channels: number;
      bitsPerChannel: number;
      hasAlpha: boolean;
      icc?: IccProfileInfo;
      /** Pixels per inch from the file's header, when it has one. */
      density?: number;
      pages: number;
      /**
       * Non-opaque pixels (alpha below its maximum), in displayed coordinates.
       * null: checked and fully opaque; undefined: not checked (no alpha, or not decoded).
       */
      transparency?: { transparentPixels: number; totalPixels: number; box: { x: number; y: number; width: number; height: number } } | null;
      /** Why decoding the pixel data failed (truncated or corrupt data). */
      decodeError?: string;
      /** Set when the image has more pixels than may be decoded; header-only facts then. */
      pixelLimitExceeded?: { pixels: number; limit: number };
      /** With `preview: true`: the viewer's picture (also when the data is damaged, if anything decodes). */
      preview?: RasterPreview;
    };

/**
 * Facts about a JPEG, PNG or TIFF for preflight: header data (size, EXIF
 * orientation, colour interpretation, bit depth, ICC profile, density) and,
 * within the pixel limit, a full decode that finds truncated data and counts
 * pixels that are actually transparent (an alpha channel alone is not).
 */
export async function analyzeRaster(bytes: Uint8Array, opts: { maxPixels: number; preview?: boolean }): Promise<RasterAnalysis> {
  let meta: sharp.Metadata;
  try {
    meta = await sharp(bytes, { failOn: "none", limitInputPixels: false }).metadata();
  } catch (err) {
    return { kind: "unreadable", reason: firstLine(err) };
  }
  if (!meta.width || !meta.height) return { kind: "unreadable", reason: "the image has no dimensions" };
  const orientation = exifOrientation(meta.orientation);
  const { width: widthPx, height: heightPx } = uprightSize({ width: meta.width, height: meta.height, orientation });
  const space = meta.space ?? "unknown";
  const channels = meta.channels ?? 3;
  const base = {
    kind: "ok" as const,
    format: meta.format ?? "unknown",
    widthPx,
    heightPx,
    orientation,
    colorMode: colorModeOf(space),
    space,
    channels,
    bitsPerChannel: bitsOf(meta.depth),
    hasAlpha: !!meta.hasAlpha,
    icc: meta.icc ? readIccProfile(meta.icc) : undefined,
    density: meta.density && meta.density > 0 ? meta.density : undefined,
    pages: meta.pages ?? 1,
  };
  const pixels = meta.width * meta.height;
  if (pixels > opts.maxPixels) return { ...base, pixelLimitExceeded: { pixels, limit: opts.maxPixels } };

  // Every pass below reads every pixel with DECODE_FAIL_ON: a truncated or corrupt file fails it.
  const open = (failOn: typeof DECODE_FAIL_ON | "none" = DECODE_FAIL_ON) => sharp(bytes, { failOn, limitInputPixels: opts.maxPixels, sequentialRead: true });
  const hasAlpha = !!meta.hasAlpha;
  try {
    // sharp turns CMYK into sRGB before extracting bands, so CMYK+alpha has its alpha at 3;
    // every other layout keeps alpha as its last band.
    const alphaBand = (space === "cmyk" ? 3 : channels - 1) as 0 | 1 | 2 | 3;
    const transparency = hasAlpha ? await measureTransparency(open().rotate(), alphaBand) : undefined;
    // The preview is the one full decode when there is no alpha; without a preview, statistics are.
    const preview = opts.preview ? await renderPreview(open(), hasAlpha) : undefined;
    if (!hasAlpha && !opts.preview) await open().stats();
    return { ...base, transparency, preview };
  } catch (err) {
    // Whatever part of a damaged file decodes is still worth showing next to the issue.
    const preview = opts.preview ? await renderPreview(open("none"), hasAlpha).catch(() => undefined) : undefined;
    return { ...base, decodeError: firstLine(err), preview };
  }
}

/** Counts pixels whose alpha is below full opacity and the box around them. */
async function measureTransparency(image: sharp.Sharp, alphaBand: 0 | 1 | 2 | 3) {
  const { data, info } = await image.extractChannel(alphaBand).raw().toBuffer({ resolveWithObject: true });
  const { width, height } = info;
  const wide = data.length >= width * height * 2;
  const values = wide ? new Uint16Array(data.buffer, data.byteOffset, width * height) : data;
  const opaque = wide ? 0xffff : 0xff;
  let count = 0;
  let minX = width;
  let minY = height;
  let maxX = -1;
  let maxY = -1;
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      if (values[row + x]! < opaque) {
        count++;
        if (x < minX) minX = x;
        if (x > maxX) maxX = x;
        if (y < minY) minY = y;
        if (y > maxY) maxY = y;
      }
    }
  }
  if (count === 0) return null;
  return { transparentPixels: count, totalPixels: width * height, box: { x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1 } };
}

function colorModeOf(space: string): RasterColorMode {
  if (space === "cmyk") return "cmyk";
  if (space === "b-w" || space === "grey16") return "gray";
  if (space === "srgb" || space === "rgb" || space === "rgb16" || space === "scrgb") return "rgb";
  if (space === "lab" || space === "labs" || space === "labq") return "lab";
  return "other";
}

function bitsOf(depth: string | undefined): number {
  switch (depth) {
    case "uchar":
    case "char":
      return 8;
    case "ushort":
    case "short":
      return 16;
    case "uint":
    case "int":
    case "float":
      return 32;
    case "double":
      return 64;
    default:
      return 8;
  }
}

function firstLine(err: unknown): string {
  return String((err as Error)?.message ?? err).split("\n")[0]!.slice(0, 300);
}
