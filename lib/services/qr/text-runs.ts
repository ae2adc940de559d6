import type { PDFFont } from "pdf-lib";
import { faceFor } from "./fonts";

export type TextRun = { face: number; text: string };

/**
 * Splits text into runs of one font each: every character goes to the first
 * face of the fallback chain that has it (whitespace stays in the current run).
 * Callers have already refused characters no face can draw.
 */
export function splitRuns(text: string): TextRun[] {
  const runs: TextRun[] = [];
  for (const ch of text) {
    const current = runs[runs.length - 1];
    const face = current && /\s/u.test(ch) ? current.face : Math.max(0, faceFor(ch.codePointAt(0)!));
    if (current && current.face === face) current.text += ch;
    else runs.push({ face, text: ch });
  }
  return runs;
}

type GlyphInfo = { hex: string; width: number };
const glyphCaches = new WeakMap<PDFFont, Map<string, GlyphInfo>>();

/**
 * One character's glyph codes and advance (per 1,000 units of size), asked of
 * pdf-lib once per character per document. Running fontkit's full shaping on
 * every string costs ~4 ms per card; names need no shaping beyond the cmap
 * (text is NFC-normalised, so Vietnamese letters are single code points), and
 * pdf-lib still records each glyph in the font subset and its ToUnicode map.
 */
function glyph(font: PDFFont, ch: string): GlyphInfo {
  let cache = glyphCaches.get(font);
  if (!cache) glyphCaches.set(font, (cache = new Map()));
  let info = cache.get(ch);
  if (!info) {
    const hex = font.encodeText(ch).toString();
    info = { hex: hex.slice(1, -1), width: font.widthOfTextAtSize(ch, 1000) };
    cache.set(ch, info);
  }
  return info;
}

export function widthOfRuns(runs: TextRun[], fonts: PDFFont[], size: number): number {
  let width = 0;
  for (const run of runs) {
    const font = fonts[run.face]!;
    for (const ch of run.text) width += glyph(font, ch).width;
  }
  return (width * size) / 1000;
}

export function hexOf(font: PDFFont, text: string): string {
  let hex = "";
  for (const ch of text) hex += glyph(font, ch).hex;
  return `<${hex}>`;
}

const ELLIPSIS = "\u2026";

/**
 * The size (and, past the smallest size, the shortened text) that makes `text`
 * fit `maxWidth`: shrink first, down to `minScale` of the size, then cut
 * characters and end with an ellipsis. A name is never silently clipped by the
 * card's edge.
 */
export function fitText(text: string, fonts: PDFFont[], size: number, maxWidth: number, minScale = 0.65): { runs: TextRun[]; size: number; width: number } {
  let runs = splitRuns(text);
  const full = widthOfRuns(runs, fonts, size);
  if (full <= maxWidth) return { runs, size, width: full };
  const scaled = Math.max(size * minScale, (size * maxWidth) / full);
  let width = widthOfRuns(runs, fonts, scaled);
  if (width <= maxWidth + 0.01) return { runs, size: scaled, width };
  const chars = [...text];
  let keep = chars.length;
  while (keep > 1) {
    // Estimate how much to keep from the overshoot, then trim one by one.
    keep = Math.min(keep - 1, Math.max(1, Math.floor((keep * maxWidth) / width)));
    runs = splitRuns(chars.slice(0, keep).join("").trimEnd() + ELLIPSIS);
    width = widthOfRuns(runs, fonts, scaled);
    if (width <= maxWidth) break;
  }
  return { runs, size: scaled, width };
}

/** `BT ... ET` drawing runs from (x, y) in the current fill colour; fontNames are the resource names of `fonts`. */
export function showRuns(runs: TextRun[], fonts: PDFFont[], fontNames: string[], size: number, x: number, y: number): string {
  let ops = `BT ${num(x)} ${num(y)} Td`;
  for (const run of runs) ops += ` /${fontNames[run.face]} ${num(size)} Tf ${hexOf(fonts[run.face]!, run.text)} Tj`;
  return `${ops} ET\n`;
}

/** Compact number for content streams: at most 3 decimals, no trailing zeros. */
export function num(n: number): string {
  return Number.isInteger(n) ? String(n) : String(Math.round(n * 1000) / 1000);
}
