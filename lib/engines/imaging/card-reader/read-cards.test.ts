import path from "node:path";
import QRCode from "qrcode";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { exifDate } from "./capture-time";
import { isFrameUnreadableError, readCards, shutDownCardReader } from "./read-cards";
import { tileGrid } from "./read-frame";

// The card reader in its worker thread, on a real photo with a QR code drawn
// by the qrcode package (an encoder independent of ZXing) pasted in small,
// turned, blurred and JPEG-compressed. The route-level tests use cards from
// our own Bulk QR PDF.
const PHOTO = path.resolve("lib/engines/ml/background-removal/fixtures/astronaut.png");
afterAll(() => shutDownCardReader());

async function frame(opts: { text: string; width: number; fraction: number; angle: number; blur: number; orientation?: number }) {
  const px = Math.round(opts.width * opts.fraction);
  const qr = await QRCode.toBuffer(opts.text, { errorCorrectionLevel: "M", margin: 2, width: Math.round(px * 0.8) });
  const card = await sharp({ create: { width: px, height: Math.round(px * 1.3), channels: 3, background: "#fff" } })
    .composite([{ input: qr, top: Math.round(px * 0.1), left: Math.round(px * 0.1) }])
    .png()
    .toBuffer();
  const turned = await sharp(card).rotate(opts.angle, { background: "#fff" }).png().toBuffer();
  const height = Math.round(opts.width * 0.66);
  let img = sharp(await sharp(PHOTO).resize(opts.width, height, { fit: "cover" }).composite([{ input: turned, left: Math.round(opts.width * 0.55), top: Math.round(height * 0.3) }]).png().toBuffer());
  if (opts.blur) img = img.blur(opts.blur);
  // Stored sideways with an EXIF orientation, as a camera held upright writes it.
  if (opts.orientation === 6) img = sharp(await img.rotate(-90).png().toBuffer()).withMetadata({ orientation: 6 });
  return img.withExif({ IFD2: { DateTimeOriginal: "2026:05:14 09:31:02", SubSecTimeOriginal: "07" } }).jpeg({ quality: 60 }).toBuffer();
}

describe("card reader", () => {
  it("reads a small, turned, blurred, compressed card, in an EXIF-rotated frame, with its capture time", async () => {
    const cases = [
      { width: 1600, fraction: 0.05, angle: 0, blur: 0 },
      { width: 1600, fraction: 0.06, angle: 15, blur: 0.8 },
      { width: 1200, fraction: 0.1, angle: -20, blur: 1 },
      { width: 1200, fraction: 0.15, angle: 8, blur: 1.2, orientation: 6 },
    ];
    for (const c of cases) {
      const reading = await readCards(await frame({ text: "psqr1:SPRING-2026:S100004", ...c }));
      expect(reading.codes, JSON.stringify(c)).toEqual(["psqr1:SPRING-2026:S100004"]);
      expect(reading.capturedAt).toBe("2026-05-14T09:31:02.070Z");
      expect(reading.width).toBe(c.width); // upright: the EXIF orientation was applied
    }
  });

  it("finds nothing in a photo without a code, and refuses a damaged file as unreadable", async () => {
    const plain = await sharp(PHOTO).resize(800).jpeg().toBuffer();
    expect((await readCards(plain)).codes).toEqual([]);
    expect((await readCards(plain)).capturedAt).toBeNull();
    const err = await readCards(plain.subarray(0, 2000)).catch((e) => e);
    expect(isFrameUnreadableError(err)).toBe(true);
  });

  it("reads EXIF times with sub-seconds and offsets, and refuses malformed ones", () => {
    expect(exifDate("2026:05:14 09:31:02", "45", "+02:00")?.toISOString()).toBe("2026-05-14T07:31:02.450Z");
    expect(exifDate("2026:05:14 09:31:02", undefined, undefined)?.toISOString()).toBe("2026-05-14T09:31:02.000Z");
    expect(exifDate("0000:00:00 00:00:00", "", "")).toBeNull();
    expect(exifDate("yesterday", "1", "")).toBeNull();
    expect(exifDate(undefined, "1", "")).toBeNull();
  });

  it("covers the frame with overlapping tiles", () => {
    const tiles = tileGrid(4000, 3000);
    for (const t of tiles) expect(t.left + t.width <= 4000 && t.top + t.height <= 3000).toBe(true);
    expect(Math.max(...tiles.map((t) => t.left + t.width))).toBe(4000);
    expect(Math.max(...tiles.map((t) => t.top + t.height))).toBe(3000);
  });
});
