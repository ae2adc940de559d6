import { clip, endPath, PDFDocument, popGraphicsState, pushGraphicsState, rectangle, type PDFEmbeddedPage, type PDFPage } from "pdf-lib";

const PT_PER_MM = 72 / 25.4;

/**
 * Extends every page to its trim plus `bleedMm` on each side. The page is
 * drawn 1:1 in the middle (vectors and text unchanged, so safety margins stay
 * where they were) and mirrored into the bleed strips: a mirror continues the
 * picture across the cut the way a printer's bleed should, where scaling the
 * page up would move everything near the edge. The corners are mirrored both
 * ways. The old page's content outside its trim is replaced by the mirror.
 * TrimBox is the old trim (moved), BleedBox and MediaBox the new page.
 */
export async function addPdfBleed(bytes: Uint8Array, opts: { bleedMm: number }): Promise<{ bytes: Uint8Array; pages: number }> {
  const src = await PDFDocument.load(bytes, { updateMetadata: false });
  const out = await PDFDocument.create({ updateMetadata: false });
  const b = opts.bleedMm * PT_PER_MM;
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
    const embedded = await out.embedPage(srcPage, { left: trim.x, bottom: trim.y, right: trim.x + trim.width, top: trim.y + trim.height });
    // Each tile: where it is clipped, and the scale/origin that mirrors the page into it.
    const cols = [
      { x: 0, w: b, sx: -1, ox: b },
      { x: b, w, sx: 1, ox: b },
      { x: b + w, w: b, sx: -1, ox: b + 2 * w },
    ];
    const rows = [
      { y: 0, h: b, sy: -1, oy: b },
      { y: b, h, sy: 1, oy: b },
      { y: b + h, h: b, sy: -1, oy: b + 2 * h },
    ];
    for (const c of cols) for (const r of rows) drawClipped(page, embedded, c, r);
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
