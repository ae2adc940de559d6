import { PDFArray, PDFDict, PDFObject } from "pdf-lib";
import { asNumber, type PdfReader } from "./pdf-objects";

/** [x0, y0, x1, y1] in points, normalised so x0 < x1 and y0 < y1. */
export type Rect = [number, number, number, number];

export type PageBoxes = {
  mediaBox: Rect;
  cropBox: Rect;
  /** The finished page; the MediaBox/CropBox when the file sets no TrimBox. */
  trimBox: Rect;
  /** What may be printed beyond the trim; the CropBox when the file sets no BleedBox. */
  bleedBox: Rect;
  hasTrimBox: boolean;
  hasBleedBox: boolean;
  /** /Rotate, normalised to 0, 90, 180 or 270. */
  rotate: number;
};

const LETTER: Rect = [0, 0, 612, 792];

/**
 * The page boxes as PDF 32000 14.11.2 defines them: MediaBox and CropBox are
 * inherited from the page tree, TrimBox and BleedBox default to the CropBox,
 * and every box is clipped to the MediaBox.
 */
export function readPageBoxes(r: PdfReader, page: PDFDict): PageBoxes {
  const media = rectOf(r, inherited(r, page, "MediaBox")) ?? LETTER;
  const crop = clip(rectOf(r, inherited(r, page, "CropBox")) ?? media, media);
  const trimRaw = rectOf(r, r.get(page, "TrimBox"));
  const bleedRaw = rectOf(r, r.get(page, "BleedBox"));
  const rotateRaw = asNumber(inherited(r, page, "Rotate")) ?? 0;
  const rotate = (((Math.round(rotateRaw / 90) * 90) % 360) + 360) % 360;
  return {
    mediaBox: media,
    cropBox: crop,
    trimBox: trimRaw ? clip(trimRaw, media) : crop,
    bleedBox: bleedRaw ? clip(bleedRaw, media) : crop,
    hasTrimBox: !!trimRaw,
    hasBleedBox: !!bleedRaw,
    rotate,
  };
}

function inherited(r: PdfReader, page: PDFDict, key: string): PDFObject | undefined {
  let node: PDFDict | undefined = page;
  // Page trees are shallow; a Parent loop in a damaged file must not spin forever.
  for (let i = 0; node && i < 64; i++) {
    const v = r.get(node, key);
    if (v !== undefined) return v;
    node = r.dict(node, "Parent");
  }
  return undefined;
}

function rectOf(r: PdfReader, v: PDFObject | undefined): Rect | undefined {
  if (!(v instanceof PDFArray)) return undefined;
  const nums = r.numbers(v);
  if (!nums || nums.length !== 4) return undefined;
  const [a, b, c, d] = nums as [number, number, number, number];
  const rect: Rect = [Math.min(a, c), Math.min(b, d), Math.max(a, c), Math.max(b, d)];
  return rect[2] - rect[0] > 0 && rect[3] - rect[1] > 0 ? rect : undefined;
}

function clip(box: Rect, to: Rect): Rect {
  const out: Rect = [Math.max(box[0], to[0]), Math.max(box[1], to[1]), Math.min(box[2], to[2]), Math.min(box[3], to[3])];
  return out[2] > out[0] && out[3] > out[1] ? out : to;
}

export const rectWidth = (r: Rect) => r[2] - r[0];
export const rectHeight = (r: Rect) => r[3] - r[1];
