import { addTextlessCopy } from "./strip-text";
import { clip, endPath, PDFDocument, popGraphicsState, pushGraphicsState, rectangle, type PDFEmbeddedPage, type PDFPage } from "pdf-lib";

const PT_PER_MM = 72 / 25.4;
/**
 * How much of the page, at each trim edge, is stretched across the bleed: a
 * hairline (0.1 pt, 0.035 mm). Only what touches the cut reaches the bleed.
 */
export const EDGE_SAMPLE_PT = 0.1;

/**
 * Extends every page to its trim plus `bleedMm` on each side. The page is
 * drawn 1:1 in the middle (vectors and text unchanged, so safety margins stay
 * where they were); each bleed strip is the page's outermost hairline at that
 * edge, stretched outwards (the corners are the corner points, stretched both
 * ways). Artwork and photos that run to the cut continue in their edge colours
 * (the "stretch" bleed of callas pdfToolbox and PitStop); artwork that stops
 * short of the cut, and text anywhere, never appear in the bleed. Mirroring the page
 * instead (what this did before issue 33) copies text lying within the bleed
 * width of the trim into the bleed as a mirrored, readable copy.
 * TrimBox is the old trim (moved), BleedBox and MediaBox the new page.
 */
export async function addPdfBleed(bytes: Uint8Array, opts: { bleedMm: number }): Promise<{ bytes: Uint8Array; pages: number }> {
  const src = await PDFDocument.load(bytes, { updateMetadata: false });
  const out = await PDFDocument.create({ updateMetadata: false });
  const b = opts.bleedMm * PT_PER_MM;
  const e = EDGE_SAMPLE_PT;
  const pages = src.getPages();
  for (const srcPage of pages) {
    const trim = srcPage.getTrimBox();
    const { width: w, height: h } = trim;
    const page = out.addPage([w + 2 * b, h + 2 * b]);
    page.setRotation(srcPage.getRotation());
    page.setTrimBox(b, b, w, h);
    page.setBleedBox(0, 0, w + 2 * b, h + 2 * b);
    // A page that draws nothing (no Contents) stays blank.
    if (!srcPage.node.Contents()) continue;
    const box = { left: trim.x, bottom: trim.y, right: trim.x + trim.width, top: trim.y + trim.height };
    // The bleed draws a copy without text: glyphs at the edge are not stretched, and none
    // hide (clipped away, yet found by text extraction and search) in the bleed tiles.
    // One call, one copier: both forms share the page's images and fonts.
    const [embedded, artwork] = await out.embedPages([srcPage, addTextlessCopy(src, srcPage)], [box, box]);
    // Each tile: where it is clipped, and the scale/origin that maps the page into it.
    // A bleed tile maps the hairline [0, e] of its edge onto [0, b] outwards (scale b/e).
    const s = b / e;
    const cols = [
      { x: 0, w: b, sx: s, ox: b - s * e },
      { x: b, w, sx: 1, ox: b },
      { x: b + w, w: b, sx: s, ox: b + w - s * (w - e) },
    ];
    const rows = [
      { y: 0, h: b, sy: s, oy: b - s * e },
      { y: b, h, sy: 1, oy: b },
      { y: b + h, h: b, sy: s, oy: b + h - s * (h - e) },
    ];
    for (const c of cols) for (const r of rows) drawClipped(page, c.sx === 1 && r.sy === 1 ? embedded! : artwork!, c, r);
  }
  return { bytes: await out.save(), pages: pages.length };
}

function drawClipped(
  page: PDFPage,
  embedded: PDFEmbeddedPage,
  c: { x: number; w: number; sx: number; ox: number },
  r: { y: number; h: number; sy: number; oy: number },
) {
  page.pushOperators(pushGraphicsState(), rectangle(c.x, r.y, c.w, r.h), clip(), endPath());
  page.drawPage(embedded, { x: c.ox, y: r.oy, xScale: c.sx, yScale: r.sy });
  page.pushOperators(popGraphicsState());
}
