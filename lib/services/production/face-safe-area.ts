import sharp from "sharp";
import type { Db } from "@/lib/foundation/db/types";
import type { RenderedPrint } from "@/lib/engines/imaging/render-print";
import { detectFaces, isFaceInputError } from "@/lib/engines/ml/faces";
import { photoFace } from "@/lib/services/orders/photo-face";
import { SAFE_MARGIN_MM } from "@/lib/services/preflight/safe-margin";

const MM_PER_INCH = 25.4;
/** The rendered file is looked at this large (long side; the engine's own detection size): a 3 mm margin is ~12 px on a 10 in print. */
const CHECK_LONG_EDGE = 1024;

/**
 * How far inside the safe area the stored face must lie, on each side, as a fraction of the
 * face's own width (left, right) or height (top, bottom), for the file to pass without the
 * face being detected again. The stored box and the one found again on the file come from the
 * same engine on the same pixels (the crop and the composite move nothing), so they differ by
 * the engine's jitter, a few per cent of the face: a quarter of it is a wide berth.
 */
export const CLEARLY_INSIDE = 0.25;

/** How often the check detected the face again, and how often the stored face was clearly inside and no detection ran (per process; the test and the bench read it). */
export const faceSafeAreaCounts = { detected: 0, skipped: 0 };

type Box = { x: number; y: number; w: number; h: number };

/**
 * Preflight's face check of a rendered print file: the photo's face (the one the
 * storefront framed, kept in photo_faces) is detected again on the file itself and
 * must lie inside the safe area, the trim less a margin of the product's bleed or
 * SAFE_MARGIN_MM, whichever is larger (a slightly-off cut must not touch it). Not found
 * again (the crop cut too much of it, or the engine misses it on the smaller picture):
 * where the crop puts the photo's face is checked instead, so a miss alone holds nothing.
 * Detecting is the render's largest cost, so it runs only when the stored face, where the
 * crop puts it, lies near the safe area's edge (or across it): a face clearly inside
 * (CLEARLY_INSIDE) passes as it is.
 * Returns the reasons to hold the file, in the studio's words; none for a photo without a face.
 * `photoSize` is the upright source's size in pixels (the crop region is in them);
 * `ppi` and `bleedMm` are what the file was rendered with.
 */
export async function faceSafeAreaReasons(db: Db, accountId: string, jobFileId: number, print: RenderedPrint, size: { ppi: number; bleedMm: number }, photoSize: { width: number; height: number }): Promise<string[]> {
  const face = await photoFace(db, accountId, jobFileId);
  if (!face) return [];
  const { ppi, bleedMm } = size;
  // As render-print draws it: the bleed mirrored outside the trim.
  const bleed = Math.round((bleedMm / MM_PER_INCH) * ppi);
  const margin = Math.round((Math.max(bleedMm, SAFE_MARGIN_MM) / MM_PER_INCH) * ppi);
  const safe = { left: bleed + margin, top: bleed + margin, right: print.widthPx - bleed - margin, bottom: print.heightPx - bleed - margin };

  // Where the photo's face should be in the file: its box through the crop region, in file pixels.
  const sx = (print.widthPx - 2 * bleed) / print.region.width;
  const sy = (print.heightPx - 2 * bleed) / print.region.height;
  const expected: Box = {
    x: bleed + (face.faceBox.x * photoSize.width - print.region.left) * sx,
    y: bleed + (face.faceBox.y * photoSize.height - print.region.top) * sy,
    w: face.faceBox.width * photoSize.width * sx,
    h: face.faceBox.height * photoSize.height * sy,
  };

  const clearlyInside =
    expected.x - safe.left >= CLEARLY_INSIDE * expected.w &&
    safe.right - (expected.x + expected.w) >= CLEARLY_INSIDE * expected.w &&
    expected.y - safe.top >= CLEARLY_INSIDE * expected.h &&
    safe.bottom - (expected.y + expected.h) >= CLEARLY_INSIDE * expected.h;
  if (clearlyInside) {
    faceSafeAreaCounts.skipped++;
    return [];
  }
  faceSafeAreaCounts.detected++;

  const scale = Math.min(1, CHECK_LONG_EDGE / Math.max(print.widthPx, print.heightPx));
  const small = await sharp(print.jpeg).resize(Math.round(print.widthPx * scale), Math.round(print.heightPx * scale), { fit: "fill" }).jpeg({ quality: 90 }).toBuffer();
  let found: Box[];
  try {
    found = (await detectFaces(new Uint8Array(small))).faces.map((f) => ({ x: f.box.x / scale, y: f.box.y / scale, w: f.box.w / scale, h: f.box.h / scale }));
  } catch (err) {
    if (!isFaceInputError(err)) throw err;
    found = [];
  }
  // The face found again: the one nearest where the photo's face should be, within a face's size of it.
  const centre = (b: Box) => ({ x: b.x + b.w / 2, y: b.y + b.h / 2 });
  const e = centre(expected);
  const again = found
    .map((b) => ({ b, d: Math.hypot(centre(b).x - e.x, centre(b).y - e.y) }))
    .filter((c) => c.d <= Math.max(expected.w, expected.h))
    .sort((a, b) => a.d - b.d)[0]?.b;
  const marginMm = Math.round(Math.max(bleedMm, SAFE_MARGIN_MM) * 10) / 10;
  const box = again ?? expected;
  const mm = (px: number) => Math.round((px / ppi) * MM_PER_INCH * 10) / 10;
  const over: string[] = [];
  if (box.x < safe.left) over.push(`${mm(safe.left - box.x)} mm on the left`);
  if (box.y < safe.top) over.push(`${mm(safe.top - box.y)} mm at the top`);
  if (box.x + box.w > safe.right) over.push(`${mm(box.x + box.w - safe.right)} mm on the right`);
  if (box.y + box.h > safe.bottom) over.push(`${mm(box.y + box.h - safe.bottom)} mm at the bottom`);
  if (!over.length) return [];
  const seen = again ? "found again on the rendered file" : "not found again on the rendered file: where the crop puts the photo's face";
  return [`The child's face crosses the print's safe area (${seen}: ${over.join(", ")}; the face must be at least ${marginMm} mm inside the trim, where the lab's cut cannot reach). Re-crop so the whole face is inside.`];
}
