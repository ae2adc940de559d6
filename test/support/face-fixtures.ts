// Face photos copied into the project (see test/fixtures/faces/README.md) and
// a few inputs made from them.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import sharp from "sharp";

export const FACE_FIXTURES = path.resolve(process.cwd(), "test/fixtures/faces");
export const faceFixture = (name: string) => fs.readFileSync(path.join(FACE_FIXTURES, name));

/** obama.jpg with its pixels turned 90° and EXIF orientation 6, so viewers show it upright. */
export async function exifRotatedPortrait(): Promise<Buffer> {
  return sharp(faceFixture("obama.jpg")).rotate(270).withMetadata({ orientation: 6 }).jpeg({ quality: 85 }).toBuffer();
}

/** Only a PNG header claiming width x height: refused before any pixel is decoded. */
export function pngHeaderOnly(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body) >>> 0);
    return Buffer.concat([len, body, crc]);
  };
  const idat = chunk("IDAT", zlib.deflateSync(Buffer.alloc(64)));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", ihdr), idat, chunk("IEND", Buffer.alloc(0))]);
}

export const truncated = (bytes: Buffer) => bytes.subarray(0, Math.floor(bytes.length * 0.3));

export const onePixelPng = () => sharp({ create: { width: 1, height: 1, channels: 3, background: "#888" } }).png().toBuffer();

export type LabelBox = { x: number; y: number; w: number; h: number };
export function iou(a: LabelBox, b: LabelBox): number {
  const x0 = Math.max(a.x, b.x);
  const y0 = Math.max(a.y, b.y);
  const x1 = Math.min(a.x + a.w, b.x + b.w);
  const y1 = Math.min(a.y + a.h, b.y + b.h);
  const inter = Math.max(0, x1 - x0) * Math.max(0, y1 - y0);
  return inter / (a.w * a.h + b.w * b.h - inter);
}

/** obama.jpg on a larger grey background, so every preset's frame fits without touching an edge. */
export function roomyPortrait(): Promise<Buffer> {
  return sharp(faceFixture("obama.jpg")).extend({ top: 500, bottom: 500, left: 500, right: 500, background: "#8a8f96" }).jpeg({ quality: 85 }).toBuffer();
}

/** obama.jpg with its top 8 px cut off: the crown about 5 px below the top edge (a head near the top of the frame, issue 22). */
export function headNearTheTop(): Promise<Buffer> {
  return sharp(faceFixture("obama.jpg")).extract({ left: 0, top: 8, width: 640, height: 792 }).jpeg({ quality: 90 }).toBuffer();
}

/**
 * biden.jpg with its top 34 px cut off: the hair's top about 8 px below the photo's
 * top, a whole head with a little room above it (the red-carpet case of issue 37).
 * The old estimate (eye line + eyes-to-chin) put the crown 14 px outside the photo.
 */
export function littleRoomAboveHair(): Promise<Buffer> {
  return sharp(faceFixture("biden.jpg")).extract({ left: 0, top: 34, width: 352, height: 766 }).jpeg({ quality: 92 }).toBuffer();
}

/**
 * A real portrait (obama.jpg, whose face box is 167 px wide) shrunk so its face is `share`
 * of a `frame`-wide photo of coffee.jpg (CC0), at `at` (fractions of the frame); with
 * `cutAtLeft`, obama_partial_face.jpg fills the frame's height at its left edge (a large
 * face the photo cuts, beside the small whole one).
 */
export async function smallFaceInFrame(share: number, opts: { frame?: { width: number; height: number }; at?: { x: number; y: number }; cutAtLeft?: boolean } = {}): Promise<Buffer> {
  const frame = opts.frame ?? { width: 1600, height: 1000 };
  const at = opts.at ?? { x: 0.5, y: 0.4 };
  const bg = await sharp(faceFixture("coffee.jpg")).resize(frame.width, frame.height, { fit: "fill" }).removeAlpha().toBuffer();
  const k = (share * frame.width) / 167;
  const portrait = await sharp(faceFixture("obama.jpg")).resize(Math.round(640 * k), Math.round(800 * k)).toBuffer();
  const { width, height } = await sharp(portrait).metadata();
  const layers: sharp.OverlayOptions[] = [];
  if (opts.cutAtLeft) layers.push({ input: await sharp(faceFixture("obama_partial_face.jpg")).resize({ height: frame.height }).toBuffer(), left: 0, top: 0 });
  layers.push({ input: portrait, left: Math.round(at.x * frame.width - width! / 2), top: Math.min(frame.height - height!, Math.round(at.y * frame.height)) });
  return sharp(bg).composite(layers).jpeg({ quality: 90 }).toBuffer();
}
