import sharp from "sharp";
import { readBarcodes, type ReadResult } from "zxing-wasm/reader";
import { captureTime } from "./capture-time";
import { zxingReader } from "./zxing-module";
import { DECODE_FAIL_ON } from "@/lib/engines/imaging/image-input";

export type FrameReading = {
  /** Every QR code read in the frame, as text, deduplicated, in the order found. */
  codes: string[];
  /** ISO 8601 from EXIF, or null. */
  capturedAt: string | null;
  /** Upright size (after the EXIF orientation). */
  width: number;
  height: number;
};

export type ReadLimits = {
  /** Longest edge the whole frame is read at (larger frames are scaled down for the first pass). */
  wholeEdge: number;
  /** Longest edge of the second, full-detail read of a frame larger than wholeEdge: a small card keeps its pixels. */
  tileEdge: number;
};

/** Frames larger than this are refused by sharp rather than decoded into gigabytes. */
const MAX_PIXELS = 100_000_000;

/**
 * ZXing's own downscaled retry is off: the first pass is already a scaled frame,
 * and on a 12 MP frame it made every read without a card about 40% dearer
 * (bench/qr-sort-bench.ts). `returnErrors` on the first pass: a symbol ZXing
 * found but could not decode is the sign that a full-detail read may succeed.
 */
const OPTIONS = { formats: ["QRCode" as const], tryHarder: true, tryRotate: false, tryInvert: false, tryDownscale: false, maxNumberOfSymbols: 4, textMode: "Plain" as const };

type Rgba = { data: Uint8ClampedArray; width: number; height: number };

async function rgba(image: sharp.Sharp, longEdge: number): Promise<Rgba> {
  const { data, info } = await image
    .clone()
    .resize(longEdge, longEdge, { fit: "inside", withoutEnlargement: true })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8ClampedArray(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height };
}

/** The codes read, and whether ZXing saw a QR symbol it could not decode (a card too small or blurred at this scale). */
async function decode(img: Rgba, returnErrors = false): Promise<{ codes: string[]; undecoded: boolean }> {
  const results: ReadResult[] = await readBarcodes(img as unknown as ImageData, { ...OPTIONS, returnErrors });
  const codes = results.filter((r) => r.isValid && r.text).map((r) => r.text);
  return { codes, undecoded: results.some((r) => !r.isValid) };
}

function crop(img: Rgba, left: number, top: number, width: number, height: number): Rgba {
  const out = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) {
    const from = ((top + y) * img.width + left) * 4;
    out.set(img.data.subarray(from, from + width * 4), y * width * 4);
  }
  return { data: out, width, height };
}

/**
 * Overlapping tiles over the frame, about half its shorter side each (a card
 * of 5% of the width is then 10–15% of its tile, where ZXing's finder sees it),
 * stepped by half a tile so every card lies whole inside at least one.
 */
export function tileGrid(width: number, height: number): { left: number; top: number; width: number; height: number }[] {
  const size = Math.max(64, Math.round(Math.min(width, height) / 2));
  const stepX = Math.round(size / 2);
  const stepY = Math.round(size / 2);
  const xs: number[] = [];
  const ys: number[] = [];
  for (let x = 0; ; x += stepX) {
    xs.push(Math.min(x, Math.max(0, width - size)));
    if (x + size >= width) break;
  }
  for (let y = 0; ; y += stepY) {
    ys.push(Math.min(y, Math.max(0, height - size)));
    if (y + size >= height) break;
  }
  const tiles = [];
  for (const top of ys) for (const left of xs) tiles.push({ left, top, width: Math.min(size, width), height: Math.min(size, height) });
  return tiles;
}

/**
 * Reads a frame upright from its EXIF orientation (sharp's rotate()). First the
 * whole frame, scaled to `wholeEdge` (2,000 px: a 12 MP JPEG is then decoded at
 * half size by libjpeg itself, sharp's shrink-on-load), enough for a card of 5%
 * of the width of a camera frame. When nothing is decoded there:
 * - a frame larger than that is read again at full detail (up to `tileEdge`)
 *   only when the first pass saw a QR symbol it could not decode: a card at
 *   the edge of legibility (3.5% of the width, blurred) is rescued, and a
 *   portrait without a card (most frames of a picture day) costs one read;
 * - a smaller frame is read in overlapping tiles, each at twice its size
 *   (ZXing locates a small, slightly blurred code more reliably when its
 *   modules are a few pixels wide), stopping at the first tile with a code.
 */
export async function readFrame(bytes: Uint8Array, limits: ReadLimits): Promise<FrameReading> {
  await zxingReader();
  const image = sharp(bytes, { failOn: DECODE_FAIL_ON, limitInputPixels: MAX_PIXELS }).rotate();
  const meta = await image.metadata();
  const width = meta.autoOrient?.width ?? meta.width ?? 0;
  const height = meta.autoOrient?.height ?? meta.height ?? 0;
  const capturedAt = (await captureTime(bytes))?.toISOString() ?? null;
  const longEdge = Math.max(width, height);
  const whole = await rgba(image, limits.wholeEdge);
  const first = await decode(whole, longEdge > limits.wholeEdge);
  let codes = first.codes;
  if (codes.length === 0 && longEdge > limits.wholeEdge) {
    if (first.undecoded) codes = (await decode(await rgba(image, limits.tileEdge))).codes;
  } else if (codes.length === 0) {
    for (const t of tileGrid(whole.width, whole.height)) {
      codes = (await decode(await upscale(crop(whole, t.left, t.top, t.width, t.height)))).codes;
      if (codes.length > 0) break;
    }
  }
  return { codes: [...new Set(codes)], capturedAt, width, height };
}

async function upscale(tile: Rgba): Promise<Rgba> {
  const { data, info } = await sharp(Buffer.from(tile.data.buffer, tile.data.byteOffset, tile.data.byteLength), { raw: { width: tile.width, height: tile.height, channels: 4 } })
    .resize(tile.width * 2, tile.height * 2, { kernel: "cubic" })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8ClampedArray(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height };
}
