import sharp from "sharp";
import type { Db } from "@/lib/foundation/db/types";
import type { RenderedPrint } from "@/lib/engines/imaging/render-print";
import { detectFaces, isFaceInputError } from "@/lib/engines/ml/faces";
import { groupFaces, photoFace } from "@/lib/services/orders/photo-face";
import type { PhotoBox } from "@/lib/foundation/db/schema";
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


export type Box = { x: number; y: number; w: number; h: number };

/**
 * Preflight's face check of a rendered print file: every face the print must keep (the
 * photo's most prominent face, the one the storefront framed, and in a group photo each
 * other face at least GROUP_FACE_MIN_WIDTH of the largest one's width that the photo itself
 * does not cut; all kept in photo_faces) must lie inside the safe area, the trim less a
 * margin of the product's bleed or SAFE_MARGIN_MM, whichever is larger (a slightly-off cut
 * must not touch it). Faces are detected again on the file itself; a face not found again
 * (the crop cut too much of it, or left it out, or the engine misses it on the smaller
 * picture) is judged by where the crop puts it, so a miss alone holds nothing.
 * Detecting is the render's largest cost, so it runs only when a face, where the crop puts
 * it, lies near the safe area's edge (or across it): faces all clearly inside
 * (CLEARLY_INSIDE) pass as they are.
 * Returns the reasons to hold the file, in the studio's words (how many faces cross and by
 * how much on which side); none for a photo without a face.
 * `photoSize` is the upright source's size in pixels (the crop region is in them);
 * `ppi` and `bleedMm` are what the file was rendered with.
 */
export async function faceSafeAreaReasons(db: Db, accountId: string, jobFileId: number, print: RenderedPrint, size: { ppi: number; bleedMm: number }, photoSize: { width: number; height: number }): Promise<string[]> {
  const face = await photoFace(db, accountId, jobFileId);
  if (!face) return [];
  const { ppi, bleedMm } = size;
  const { safe, kept, expected } = facesUnderCrop(face.faces, print, { ppi, bleedMm }, photoSize);
  const clearlyInside = (b: Box) =>
    b.x - safe.left >= CLEARLY_INSIDE * b.w && safe.right - (b.x + b.w) >= CLEARLY_INSIDE * b.w && b.y - safe.top >= CLEARLY_INSIDE * b.h && safe.bottom - (b.y + b.h) >= CLEARLY_INSIDE * b.h;
  const near = expected.map((b, i) => ({ b, i })).filter(({ b }) => !clearlyInside(b));
  if (!near.length) {
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
  const again = matchFound(
    near.map(({ b }) => b),
    found,
  );

  const crossing = near
    .map(({ b, i }, n) => {
      const box = again[n] ?? b;
      return { i, seenAgain: Boolean(again[n]), over: overSafeArea(box, safe, ppi) };
    })
    .filter((c) => c.over.length);
  const seen = (c: { seenAgain: boolean }) => (c.seenAgain ? "found again on the rendered file" : "not found again on the rendered file: where the crop puts the photo's face");
  const seenInGroup = (c: { seenAgain: boolean }) => (c.seenAgain ? "found again on the rendered file" : "not found again on the rendered file, where the crop puts it");
  return safeAreaReasons(crossing, kept.length, bleedMm, seen, seenInGroup);
}

type Crossing = { i: number; over: string[]; seenAgain: boolean };

/**
 * The print's safe area and the faces it must keep (the photo's main face and each other face
 * at least GROUP_FACE_MIN_WIDTH of the largest the photo itself does not cut, left to right),
 * each where the crop puts it, in the file's pixels. `print`: the file's size and the region of
 * the upright photo (`photoSize`) it is cut from (render-print's printGeometry).
 */
export function facesUnderCrop(faces: PhotoBox[], print: { widthPx: number; heightPx: number; region: { left: number; top: number; width: number; height: number } }, size: { ppi: number; bleedMm: number }, photoSize: { width: number; height: number }) {
  const { ppi, bleedMm } = size;
  // As render-print draws it: the bleed mirrored outside the trim.
  const bleed = Math.round((bleedMm / MM_PER_INCH) * ppi);
  const margin = Math.round((Math.max(bleedMm, SAFE_MARGIN_MM) / MM_PER_INCH) * ppi);
  const safe = { left: bleed + margin, top: bleed + margin, right: print.widthPx - bleed - margin, bottom: print.heightPx - bleed - margin };

  // The faces to keep, left to right in the photo (how the reason names them).
  const kept = groupFaces(faces).sort((a, b) => a.x + a.width / 2 - (b.x + b.width / 2));

  // Where each face should be in the file: its box through the crop region, in file pixels.
  const sx = (print.widthPx - 2 * bleed) / print.region.width;
  const sy = (print.heightPx - 2 * bleed) / print.region.height;
  const expected: Box[] = kept.map((f) => ({
    x: bleed + (f.x * photoSize.width - print.region.left) * sx,
    y: bleed + (f.y * photoSize.height - print.region.top) * sy,
    w: f.width * photoSize.width * sx,
    h: f.height * photoSize.height * sy,
  }));
  return { safe, kept, expected };
}

/** How far a face's box runs over the safe area, side by side, in mm ("2.1 mm at the top"); none when inside. */
export function overSafeArea(box: Box, safe: { left: number; top: number; right: number; bottom: number }, ppi: number): string[] {
  const mm = (px: number) => Math.round((px / ppi) * MM_PER_INCH * 10) / 10;
  const over: string[] = [];
  if (box.x < safe.left) over.push(`${mm(safe.left - box.x)} mm on the left`);
  if (box.y < safe.top) over.push(`${mm(safe.top - box.y)} mm at the top`);
  if (box.x + box.w > safe.right) over.push(`${mm(box.x + box.w - safe.right)} mm on the right`);
  if (box.y + box.h > safe.bottom) over.push(`${mm(box.y + box.h - safe.bottom)} mm at the bottom`);
  return over;
}

/**
 * The hold's words for faces crossing the safe area (production's hold and the cart's warning
 * say the same): `seen` says how the face's place is known, for one face and in a group.
 */
export function safeAreaReasons(crossing: Crossing[], keptCount: number, bleedMm: number, seen: (c: Crossing) => string, seenInGroup: (c: Crossing) => string): string[] {
  if (!crossing.length) return [];
  const marginMm = Math.round(Math.max(bleedMm, SAFE_MARGIN_MM) * 10) / 10;
  if (keptCount === 1) {
    const c = crossing[0]!;
    return [`The child's face crosses the print's safe area (${seen(c)}: ${c.over.join(", ")}; the face must be at least ${marginMm} mm inside the trim, where the lab's cut cannot reach). Re-crop so the whole face is inside.`];
  }
  const which = crossing.map((c) => `the ${ordinal(c.i + 1)} from the left, ${seenInGroup(c)}: ${c.over.join(", ")}`);
  const count = crossing.length === 1 ? `1 of the ${keptCount} faces in this group photo crosses` : `${crossing.length} of the ${keptCount} faces in this group photo cross`;
  return [`${count} the print's safe area (${which.join("; ")}; every face must be at least ${marginMm} mm inside the trim, where the lab's cut cannot reach). Re-crop so every face is inside.`];
}

/** Each expected face's box found again on the file: the nearest found face within a face's size of where it should be, each found face used once (nearest pairs first). */
function matchFound(expected: Box[], found: Box[]): (Box | undefined)[] {
  const centre = (b: Box) => ({ x: b.x + b.w / 2, y: b.y + b.h / 2 });
  const pairs = expected
    .flatMap((e, i) => found.map((f, j) => ({ i, j, d: Math.hypot(centre(f).x - centre(e).x, centre(f).y - centre(e).y), reach: Math.max(e.w, e.h) })))
    .filter((p) => p.d <= p.reach)
    .sort((a, b) => a.d - b.d);
  const out: (Box | undefined)[] = expected.map(() => undefined);
  const used = new Set<number>();
  for (const p of pairs) {
    if (out[p.i] || used.has(p.j)) continue;
    out[p.i] = found[p.j];
    used.add(p.j);
  }
  return out;
}

function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${["th", "st", "nd", "rd"][n % 10] ?? "th"}`;
}
