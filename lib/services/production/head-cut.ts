import sharp from "sharp";
import type { PhotoBox } from "@/lib/foundation/db/schema";
import { GROUP_FACE_MIN_WIDTH } from "@/lib/services/orders/photo-face";
import { HEAD_CUT_SHARE, TOP_EDGE_SHARE } from "./values";

/**
 * The hold's reason (and the cart's warning, word for word) when the child's head runs off the
 * photo's top inside the print's crop: on a new background the cut-out cannot tell where the
 * hair ends, so the studio looks before it prints.
 */
export const HEAD_CUT_REASON = "The top of the head is cut off in this photo (the child runs off its top edge inside the print's crop): the studio will check the cut-out before printing it on the background.";

/** What rows of the matte made before this rule said (stored in photo_mattes.doubts); the rule is judged per print now. */
export const OLD_TOP_EDGE_DOUBT = "The person touches the photo's top edge";

/** The print's crop reaches the photo's top when it starts within this share of the photo's height from it. */
const TOP_REACH = 0.005;
/** Gaps in the matte's top row up to this share of its width are bridged (strands of hair, a soft edge). */
const GAP_SHARE = 0.005;

/** The print's region as fractions of the upright photo. */
export type PhotoRegion = { x: number; y: number; width: number; height: number };

/** The matte's top row (its alpha, 0-255) at the matte's own width. */
export async function matteTopRow(matte: Buffer): Promise<{ row: Uint8Array; width: number }> {
  const { data, info } = await sharp(matte).extractChannel(0).extract({ left: 0, top: 0, width: (await sharp(matte).metadata()).width!, height: 1 }).raw().toBuffer({ resolveWithObject: true });
  return { row: new Uint8Array(data.buffer, data.byteOffset, info.width), width: info.width };
}

/**
 * Whether a print of this photo shows a head cut by the photo's top edge: only when the print's
 * crop reaches the photo's top (a crop starting lower cuts the head itself, where the matte is
 * sure), and then only where the print needs the head: the matte's run along the top row, inside
 * the crop's columns and over a face's head (the face's width and half of it each side, for the
 * hair), as wide as HEAD_CUT_SHARE of that face. A few stray pixels or hair grazing the edge make
 * a narrow run and pass. Without a face, a run over TOP_EDGE_SHARE of the crop's width counts.
 * `faces` and `region` are fractions of the upright photo; the matte's row may be at any scale.
 */
export function headCutAtTop(top: { row: Uint8Array; width: number }, region: PhotoRegion, faces: PhotoBox[]): boolean {
  if (region.y > TOP_REACH) return false;
  const W = top.width;
  const from = Math.max(0, Math.floor(region.x * W));
  const to = Math.min(W, Math.ceil((region.x + region.width) * W));
  const gap = Math.max(1, Math.round(GAP_SHARE * W));
  // The runs of the person along the top row inside the crop, small gaps bridged.
  const runs: [number, number][] = [];
  for (let x = from; x < to; x++) {
    if (top.row[x]! < 128) continue;
    const last = runs[runs.length - 1];
    if (last && x - last[1] <= gap) last[1] = x + 1;
    else runs.push([x, x + 1]);
  }
  if (!runs.length) return false;
  if (!faces.length) return Math.max(...runs.map(([a, b]) => b - a)) > TOP_EDGE_SHARE * (to - from);
  // The faces a print keeps (face-safe-area.ts): a passer-by's small face cut at the top is not the child's.
  const largest = Math.max(...faces.map((f) => f.width));
  return faces.some((f) => {
    if (f.width < GROUP_FACE_MIN_WIDTH * largest) return false;
    const headFrom = (f.x - f.width / 2) * W;
    const headTo = (f.x + 1.5 * f.width) * W;
    const over = Math.max(...runs.map(([a, b]) => Math.min(b, headTo) - Math.max(a, headFrom)));
    return over >= HEAD_CUT_SHARE * f.width * W;
  });
}

/**
 * headCutAtTop for a print's region in pixels of an image of `size` (the original, or the matte
 * at its own scale), on the matte's top row: what production's hold and the cart's warning both ask.
 */
export async function headCutInRegion(matte: Buffer, region: { left: number; top: number; width: number; height: number }, size: { width: number; height: number }, faces: PhotoBox[]): Promise<boolean> {
  const fraction = { x: region.left / size.width, y: region.top / size.height, width: region.width / size.width, height: region.height / size.height };
  return headCutAtTop(await matteTopRow(matte), fraction, faces);
}
