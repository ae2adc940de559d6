/**
 * Where things go on one card, in the card's own coordinates (points, origin at
 * its bottom-left), scaled with the card so every layout keeps the same look.
 *
 *   ┌──────────────────────────┐
 *   │ [logo]  School name      │  header (only when there is a logo or school name)
 *   │                          │
 *   │        ██ QR ██          │  as large as fits, with its 4-module quiet zone
 *   │                          │
 *   │        Given Family      │  name
 *   │          Class           │  class
 *   │        ID S000123        │  student id
 *   └──────────────────────────┘
 *
 * With gallery codes (lib/services/galleries/card-codes.ts) the text block
 * gains a last line, "Gallery code XXXXX-XXXXX", and shares its height with a
 * second, smaller QR in the bottom-right corner that opens the parent's
 * gallery with the code entered. It stays well under the sorting QR's size, so
 * the sort reads the card by its big QR (the small one is not one of ours and
 * is ignored there), and the big QR loses only the one added line of height.
 */
export type CardDesign = {
  inset: number;
  header: { top: number; height: number } | null;
  schoolSize: number;
  logoMaxWidth: number;
  qr: { x: number; y: number; size: number; module: number };
  name: { baseline: number; size: number };
  className: { baseline: number; size: number };
  studentId: { baseline: number; size: number };
  /** The gallery code's line and its QR; null on cards without codes. */
  gallery: { line: { baseline: number; size: number }; qr: { x: number; y: number; size: number; module: number } } | null;
  /** The text block's left edge and width (lines are centred in it). */
  textLeft: number;
  textWidth: number;
};

/** QR's own rule: four modules of light space on every side. */
const QUIET_MODULES = 4;

/** A name wraps onto at most this many lines (after shrinking); the QR makes room for them. */
export const NAME_MAX_LINES = 3;
/** Baseline to baseline, per point of name size. */
export const NAME_LEADING = 1.15;

/** The gallery QR's light margin: the card's inset and the text gap are white too, so two modules suffice. */
const GALLERY_QUIET_MODULES = 2;
/** The gallery QR's box at most this share of the card's width, so the names keep most of the line. */
const GALLERY_MAX_WIDTH = 0.3;

/**
 * `nameLines`: how many lines the longest name of the document takes (they stack upwards from the name's baseline).
 * `galleryModules`: the gallery QR's size in modules, 0 for cards without gallery codes.
 */
export function cardDesign(width: number, height: number, modules: number, hasHeader: boolean, nameLines = 1, galleryModules = 0): CardDesign {
  const inset = 0.045 * height;
  const headerHeight = hasHeader ? 0.09 * height : 0;
  const nameSize = 0.06 * height;
  const smallSize = 0.04 * height;
  const line = (size: number) => size * 1.3;

  const codeBaseline = inset + 0.3 * smallSize;
  const idBaseline = galleryModules > 0 ? codeBaseline + line(smallSize) : codeBaseline;
  const classBaseline = idBaseline + line(smallSize);
  const nameBaseline = classBaseline + line(smallSize) + 0.05 * nameSize;
  const textTop = nameBaseline + nameSize + (nameLines - 1) * NAME_LEADING * nameSize;

  const zoneBottom = textTop;
  const zoneTop = height - inset - headerHeight;
  // The quiet zone may run into the card's inset (it is white too), but not past the cut.
  const ratio = modules / (modules + 2 * QUIET_MODULES);
  const size = Math.min((zoneTop - zoneBottom) * ratio, (width - inset) * ratio);
  const moduleSize = size / modules;
  let gallery: CardDesign["gallery"] = null;
  let textWidth = width - 2 * inset;
  if (galleryModules > 0) {
    const box = Math.min(textTop - inset, GALLERY_MAX_WIDTH * width);
    const galleryModule = box / (galleryModules + 2 * GALLERY_QUIET_MODULES);
    const quiet = GALLERY_QUIET_MODULES * galleryModule;
    gallery = { line: { baseline: codeBaseline, size: smallSize }, qr: { x: width - inset - box + quiet, y: inset + quiet, size: galleryModules * galleryModule, module: galleryModule } };
    textWidth -= box;
  }
  return {
    inset,
    header: hasHeader ? { top: height - inset, height: headerHeight } : null,
    schoolSize: 0.4 * headerHeight,
    logoMaxWidth: 2.4 * headerHeight,
    qr: { x: (width - size) / 2, y: zoneBottom + (zoneTop - zoneBottom - size) / 2, size, module: moduleSize },
    name: { baseline: nameBaseline, size: nameSize },
    className: { baseline: classBaseline, size: smallSize },
    studentId: { baseline: idBaseline, size: smallSize },
    gallery,
    textLeft: inset,
    textWidth,
  };
}
