import type { PDFFont } from "pdf-lib";
import { faceFor, fontFaces } from "@/lib/engines/pdf/card-fonts/fonts";

/** Text drawn with one font, in one direction. */
export type TextRun = { face: number; text: string };
/** One line ready to draw: runs in visual order (left to right on the page), and its width at `size`. */
export type LaidLine = { runs: TextRun[]; width: number };
/** The fonts of one document, by face index (undefined where that face is not embedded). */
export type DocFonts = Array<PDFFont | undefined>;

/** Characters that join the run they sit in (spaces, joiners, combining marks) instead of starting one. */
const JOINS_RUN = /[\s\p{Cf}\p{M}]/u;

/**
 * Splits text (logical order) into runs of one font each: every character goes
 * to the first face of the fallback chain that has it; spaces, joiners and
 * marks stay in the current run. Callers have already refused characters no face can draw.
 */
export function splitRuns(text: string): TextRun[] {
  const faces = fontFaces();
  const runs: TextRun[] = [];
  for (const ch of text) {
    const current = runs[runs.length - 1];
    const cp = ch.codePointAt(0)!;
    const stays = current && JOINS_RUN.test(ch) && (/\s|\p{Cf}/u.test(ch) || faces[current.face]!.font.hasGlyphForCodePoint(cp));
    const face = stays ? current.face : Math.max(0, faceFor(cp));
    if (current && current.face === face) current.text += ch;
    else runs.push({ face, text: ch });
  }
  return runs;
}

const isRtl = (face: number) => fontFaces()[face]!.rtl;

/**
 * Runs in visual order. A line whose first strong character is right-to-left
 * (Hebrew, Arabic) reads from the right: its runs are drawn in reverse order,
 * each right-to-left run's glyphs come back from fontkit already reversed, and
 * left-to-right runs inside it (Latin words, digits) keep their own order. This
 * is the Unicode bidi algorithm's result for names: one paragraph level, runs of
 * one script each.
 */
export function visualOrder(runs: TextRun[]): TextRun[] {
  const firstStrong = runs.find((r) => /[\p{L}]/u.test(r.text));
  if (!firstStrong || !isRtl(firstStrong.face)) return runs;
  // Spaces between runs belong to the run before them (logical order); on a
  // right-to-left line they must move to the other side of that run.
  const out: TextRun[] = [];
  for (const run of [...runs].reverse()) {
    if (isRtl(run.face)) out.push(run);
    else {
      const m = /^(\s*)(.*?)(\s*)$/su.exec(run.text)!;
      out.push({ face: run.face, text: m[3]! + m[2]! + m[1]! });
    }
  }
  return out;
}

type Encoded = { hex: string; width: number };
const caches = new WeakMap<PDFFont, Map<string, Encoded>>();

/**
 * Glyph codes and advance (per 1,000 units of size) of `text` in `font`, asked
 * of pdf-lib once per document. Simple faces are encoded a character at a time
 * (running fontkit's full shaping on every string costs ~4 ms per card; text is
 * NFC-normalised, so Vietnamese letters are single code points); shaped faces a
 * whole run at a time, so Arabic letters take their joining forms. Either way
 * pdf-lib records each glyph in the font subset and its ToUnicode map.
 */
function encoded(font: PDFFont, text: string, face: number): Encoded {
  let cache = caches.get(font);
  if (!cache) caches.set(font, (cache = new Map()));
  let info = cache.get(text);
  if (!info) {
    if (isRtl(face)) reverseLigatureText(face, text);
    const hex = font.encodeText(text).toString();
    info = { hex: hex.slice(1, -1), width: font.widthOfTextAtSize(text, 1000) };
    cache.set(text, info);
  }
  return info;
}

type GlyphLike = { codePoints: number[] };
const reversed = new WeakSet<GlyphLike>();

/**
 * A right-to-left ligature (Arabic lam-alef) is one glyph for several
 * characters. Text extractors (poppler, pdf.js) read a right-to-left line in
 * visual order and reverse it, characters of a ligature's ToUnicode entry
 * included, so "لا" would come back as "ال". Its entry is therefore written in
 * visual order too, which reads back in logical order. pdf-lib builds the
 * ToUnicode map from these same glyph objects (fontkit caches one per glyph id).
 */
function reverseLigatureText(face: number, text: string): void {
  for (const glyph of fontFaces()[face]!.font.layout(text).glyphs as unknown as GlyphLike[]) {
    if (glyph.codePoints.length > 1 && !reversed.has(glyph)) {
      glyph.codePoints = [...glyph.codePoints].reverse();
      reversed.add(glyph);
    }
  }
}

function pieces(run: TextRun): string[] {
  return fontFaces()[run.face]!.shaped ? [run.text] : [...run.text];
}

function fontOf(fonts: DocFonts, face: number): PDFFont {
  const font = fonts[face];
  if (!font) throw new Error(`Card font ${face} is not embedded in this document`);
  return font;
}

export function widthOfRuns(runs: TextRun[], fonts: DocFonts, size: number): number {
  let width = 0;
  for (const run of runs) {
    const font = fontOf(fonts, run.face);
    for (const piece of pieces(run)) width += encoded(font, piece, run.face).width;
  }
  return (width * size) / 1000;
}

export function hexOf(fonts: DocFonts, run: TextRun): string {
  const font = fontOf(fonts, run.face);
  let hex = "";
  for (const piece of pieces(run)) hex += encoded(font, piece, run.face).hex;
  return `<${hex}>`;
}

/** One line of text at `size`: runs in visual order and width. */
export function layLine(text: string, fonts: DocFonts, size: number): LaidLine {
  const runs = visualOrder(splitRuns(text));
  return { runs, width: widthOfRuns(runs, fonts, size) };
}

/** Faces `texts` need, so a document embeds only those. */
export function facesUsed(texts: Iterable<string>): Set<number> {
  const used = new Set<number>();
  for (const text of texts) for (const run of splitRuns(text)) used.add(run.face);
  return used;
}

export type FittedText = { lines: LaidLine[]; size: number };

/**
 * Breaks `text` into at most `lines` lines no wider than `maxWidth` at `size`:
 * at spaces where it can, inside a word only when the word alone is too wide.
 * Returns undefined when it takes more lines than that.
 */
function wrap(text: string, fonts: DocFonts, size: number, maxWidth: number, lines: number, breakWords: boolean): LaidLine[] | undefined {
  const words = text.split(/(?<=\s)/u);
  const out: LaidLine[] = [];
  let current = "";
  const flush = () => {
    if (current.trim()) out.push(layLine(current.trim(), fonts, size));
    current = "";
  };
  for (const word of words) {
    const candidate = current + word;
    if (layLine(candidate.trim(), fonts, size).width <= maxWidth) {
      current = candidate;
      continue;
    }
    flush();
    if (layLine(word.trim(), fonts, size).width <= maxWidth) {
      current = word;
      continue;
    }
    if (!breakWords) return undefined;
    // A single word wider than the line: break it between characters.
    for (const ch of word) {
      if (current && layLine((current + ch).trim(), fonts, size).width > maxWidth) flush();
      current += ch;
    }
    if (out.length > lines) return undefined;
  }
  flush();
  return out.length <= lines ? out : undefined;
}

/**
 * The size and lines that show all of `text` within `maxWidth`. Shrink first,
 * down to `minScale` of the size, on one line; then wrap onto up to `maxLines`
 * lines at the largest size that fits; past that, shrink further. Text is never
 * cut short: every character of the name is printed.
 */
export function fitText(text: string, fonts: DocFonts, size: number, maxWidth: number, opts: { minScale?: number; maxLines?: number } = {}): FittedText {
  const minScale = opts.minScale ?? 0.65;
  const maxLines = opts.maxLines ?? 1;
  const one = layLine(text, fonts, size);
  if (one.width <= maxWidth) return { lines: [one], size };
  const shrunk = Math.max(size * minScale, (size * maxWidth) / one.width);
  if (shrunk > size * minScale || maxLines === 1) {
    const s = Math.min(shrunk, (size * maxWidth) / one.width);
    return { lines: [layLine(text, fonts, s)], size: s };
  }
  // Fewest lines, then the largest size; words are broken between letters only
  // when a single word is too wide even at the smallest size.
  for (const breakWords of [false, true]) {
    for (let lines = 2; lines <= maxLines; lines++) {
      for (let s = size; s >= size * minScale - 1e-9; s -= size * 0.05) {
        const wrapped = wrap(text, fonts, s, maxWidth, lines, breakWords);
        if (wrapped) return { lines: wrapped, size: s };
      }
    }
  }
  // Still too long: keep the most lines and shrink until it fits.
  let s = size * minScale;
  for (;;) {
    s *= 0.9;
    const wrapped = wrap(text, fonts, s, maxWidth, maxLines, true);
    if (wrapped) return { lines: wrapped, size: s };
    if (s < 0.5) {
      const single = (size * maxWidth) / one.width;
      return { lines: [layLine(text, fonts, single)], size: single };
    }
  }
}

/** `BT ... ET` drawing a laid-out line from (x, y) in the current fill colour; fontNames are the resource names by face. */
export function showRuns(runs: TextRun[], fonts: DocFonts, fontNames: string[], size: number, x: number, y: number): string {
  let ops = `BT ${num(x)} ${num(y)} Td`;
  for (const run of runs) ops += ` /${fontNames[run.face]} ${num(size)} Tf ${hexOf(fonts, run)} Tj`;
  return `${ops} ET\n`;
}

/** Compact number for content streams: at most 3 decimals, no trailing zeros. */
export function num(n: number): string {
  return Number.isInteger(n) ? String(n) : String(Math.round(n * 1000) / 1000);
}
