// A picture day in pictures: Bulk QR cards made by our own generator (its PDF,
// rendered with pdf.js and cut into cards as a guillotine would), held up in
// real photos (test/fixtures and the background-removal fixtures) at an angle,
// small, blurred, JPEG-compressed, sometimes stored sideways with an EXIF
// orientation, each frame stamped with the EXIF capture time of its camera.
// No app imports: Playwright specs run it in a child process too
// (e2e/support/picture-day-frames.mts).
import path from "node:path";
import QRCode from "qrcode";
import sharp from "sharp";
import { PAGE_SIZES, cardCells, cardsPerPage } from "../../lib/services/qr/layouts";
import { forEachRenderedPage } from "./pdf-render";

/** Cuts a Bulk QR PDF (4 per Letter page, the free plan's layout) into its cards, each a PNG, by student id in roster order. */
export async function cutCards(pdf: Uint8Array, studentIds: string[], dpi = 72): Promise<Map<string, Buffer>> {
  const scale = dpi / 72;
  const pageHeight = PAGE_SIZES.letter.height;
  const cards = new Map<string, Buffer>();
  await forEachRenderedPage(pdf, dpi, async (page) => {
    for (const [c, cell] of cardCells("4up", "letter").entries()) {
      const studentId = studentIds[(page.pageNumber - 1) * cardsPerPage("4up") + c];
      if (!studentId) continue;
      const px = page.crop(Math.round(cell.x * scale), Math.round((pageHeight - cell.y - cell.height) * scale), Math.round(cell.width * scale), Math.round(cell.height * scale));
      cards.set(studentId, await sharp(Buffer.from(px.data.buffer, px.data.byteOffset, px.data.byteLength), { raw: { width: px.width, height: px.height, channels: 4 } }).png().toBuffer());
    }
  });
  return cards;
}

/** A plain QR holding just a text (a school's own ID card with the student id, say), drawn by the qrcode package on a white card. */
export async function plainQrCard(text: string): Promise<Buffer> {
  const qr = await QRCode.toBuffer(text, { errorCorrectionLevel: "M", margin: 3, width: 220 });
  return sharp({ create: { width: 260, height: 330, channels: 3, background: "#ffffff" } }).composite([{ input: qr, left: 20, top: 20 }]).png().toBuffer();
}

const PHOTOS = [
  "test/fixtures/faces/obama.jpg",
  "test/fixtures/faces/biden.jpg",
  "test/fixtures/faces/obama2.jpg",
  "test/fixtures/faces/biden2.jpg",
  "test/fixtures/faces/obama3.jpg",
  "lib/engines/ml/background-removal/fixtures/astronaut.png",
  "lib/engines/ml/background-removal/fixtures/chelsea.png",
  "test/fixtures/faces/two_people.jpg",
].map((p) => path.resolve(p));

export type FrameSpec = {
  name: string;
  /** The card held up in this frame, if any. */
  card?: Buffer;
  /** Card width as a fraction of the frame's width (0.05–0.15). */
  fraction?: number;
  angle?: number;
  blur?: number;
  quality?: number;
  /** 6: stored turned a quarter, with EXIF orientation 6 (as a camera held upright writes it). */
  orientation?: 1 | 6;
  /** Seconds after 09:00:00 on picture day (sub-seconds kept); null: no EXIF time at all. */
  seconds: number | null;
  width?: number;
  photo?: number;
};

/** One camera frame as described: a real photo, the card pasted in, then the camera's processing. */
export async function cameraFrame(spec: FrameSpec): Promise<Buffer> {
  const width = spec.width ?? 1000;
  const height = Math.round((width * 2) / 3);
  let base = sharp(PHOTOS[(spec.photo ?? 0) % PHOTOS.length]).resize(width, height, { fit: "cover" }).flatten({ background: "#ffffff" });
  if (spec.card) {
    const cardWidth = Math.round(width * (spec.fraction ?? 0.1));
    const small = await sharp(spec.card).resize(cardWidth).png().toBuffer();
    const turned = await sharp(small).rotate(spec.angle ?? 0, { background: "#f4f4f4" }).png().toBuffer();
    const meta = await sharp(turned).metadata();
    base = sharp(await base.composite([{ input: turned, left: Math.round(width * 0.62 - meta.width! / 2), top: Math.round(height * 0.55 - meta.height! / 2) }]).png().toBuffer());
  }
  let img = sharp(await base.png().toBuffer());
  if (spec.blur) img = img.blur(spec.blur);
  if (spec.orientation === 6) img = sharp(await img.rotate(-90).png().toBuffer()).withMetadata({ orientation: 6 });
  if (spec.seconds !== null) {
    const whole = Math.floor(spec.seconds);
    const stamp = `2026:05:14 09:${String(Math.floor(whole / 60)).padStart(2, "0")}:${String(whole % 60).padStart(2, "0")}`;
    img = img.withExif({ IFD2: { DateTimeOriginal: stamp, SubSecTimeOriginal: String(Math.round((spec.seconds - whole) * 100)).padStart(2, "0") } });
  }
  return img.jpeg({ quality: spec.quality ?? 80 }).toBuffer();
}

/** What the frame's EXIF time reads as (UTC: no offset is written). */
export const captureIso = (seconds: number) => new Date(Date.UTC(2026, 4, 14, 9, 0, 0) + Math.round(seconds * 1000)).toISOString();
