import fs from "node:fs";
import path from "node:path";
import * as fontkitModule from "@pdf-lib/fontkit";

// The package's ES build has only a default export, its CommonJS build only
// named ones (and its types describe those): take whichever this bundler gave.
const fontkit = ((fontkitModule as unknown as { default?: typeof fontkitModule }).default ?? fontkitModule) as typeof fontkitModule;

/**
 * The fonts cards are printed with, in fallback order: each character is drawn
 * with the first font that has a glyph for it. Noto Sans covers Latin (with
 * Vietnamese and the rest of Latin Extended), Greek and Cyrillic; Noto Sans JP
 * adds kana and the kanji of Japanese names (and with them most Han characters
 * of Chinese and Korean names); Noto Sans KR (cut down to Hangul) adds Korean;
 * Noto Sans Arabic and Hebrew the right-to-left scripts. All are TrueType (glyf
 * outlines), which pdf-lib subsets reliably, and all are under the SIL Open Font
 * License 1.1 (see assets/README.md). To cover another script, append its font here.
 *
 * `shaped` faces are laid out a run at a time through fontkit's OpenType shaping
 * (Arabic joining forms and lam-alef ligatures from the font's GSUB, marks);
 * `rtl` faces draw right to left (fontkit returns their glyphs in visual order).
 */
export const FONT_FILES = [
  { file: "NotoSans-Regular.ttf", shaped: false, rtl: false },
  { file: "NotoSansJP-Regular.ttf", shaped: false, rtl: false },
  { file: "NotoSansKR-Hangul.ttf", shaped: false, rtl: false },
  { file: "NotoSansArabic-Regular.ttf", shaped: true, rtl: true },
  { file: "NotoSansHebrew-Regular.ttf", shaped: true, rtl: true },
] as const;

/** What the cards print, for messages. */
export const PRINTABLE_SCRIPTS = "Latin (incl. Vietnamese and other accented letters), Greek, Cyrillic, Korean Hangul, Japanese kana and kanji, Arabic and Hebrew";

export type FontFace = { file: string; shaped: boolean; rtl: boolean; bytes: Buffer; font: fontkitModule.Font };

// Resolved from the project root: the same in `next start`, vitest and tsx.
const ASSETS_DIR = path.join(process.cwd(), "lib", "engines", "pdf", "card-fonts", "assets");

let faces: FontFace[] | undefined;

/**
 * Parsed once per process. Parsing the 5 MB CJK font costs ~100 ms, which would
 * otherwise be paid by every generation; the parsed font is read-only apart
 * from fontkit's own glyph cache, so documents can share it.
 */
export function fontFaces(): FontFace[] {
  faces ??= FONT_FILES.map(({ file, shaped, rtl }) => {
    const bytes = fs.readFileSync(/*turbopackIgnore: true*/ path.join(ASSETS_DIR, file));
    return { file, shaped, rtl, bytes, font: withEvenGlyphRecords(fontkit.create(bytes)) };
  });
  return faces;
}

type GlyphRecord = Uint8Array & { copy?: unknown };
type TtfSubsetInternals = { glyf: GlyphRecord[]; offset: number; _addGlyph: (gid: number) => number };

/**
 * Works around a subsetting bug in @pdf-lib/fontkit 1.1.1: a small subset is
 * written with a short (offset / 2) `loca` table, but glyph records are copied
 * at their source length, and current Noto builds do not pad records to an even
 * length. Every glyph after an odd-length one then points at the wrong bytes,
 * and most letters vanish from the PDF (text extraction still works, so only
 * rendering shows it). Padding each copied record to an even length, as the
 * TrueType spec asks for short offsets, fixes it; card-fonts.test.ts checks
 * every embedded glyph decodes.
 */
function withEvenGlyphRecords(font: fontkitModule.Font): fontkitModule.Font {
  const createSubset = font.createSubset.bind(font);
  font.createSubset = () => {
    const subset = createSubset() as unknown as TtfSubsetInternals;
    const addGlyph = subset._addGlyph;
    if (typeof addGlyph !== "function") return subset as unknown as fontkitModule.Subset;
    subset._addGlyph = function (this: TtfSubsetInternals, gid: number) {
      const index = addGlyph.call(this, gid);
      const record = this.glyf[this.glyf.length - 1]!;
      if (record.length % 2 === 1) {
        const padded = new (record.constructor as new (n: number) => GlyphRecord)(record.length + 1);
        padded.set(record);
        padded[record.length] = 0;
        this.glyf[this.glyf.length - 1] = padded;
        this.offset += 1;
      }
      return index;
    };
    return subset as unknown as fontkitModule.Subset;
  };
  return font;
}

/**
 * A fontkit stand-in for `PDFDocument.registerFontkit` that hands pdf-lib the
 * already-parsed font for bytes it has seen, instead of parsing them again.
 */
export const cachedFontkit = {
  create(bytes: Uint8Array) {
    const face = fontFaces().find((f) => f.bytes === bytes || (f.bytes.byteLength === bytes.byteLength && f.bytes.equals(bytes)));
    return face ? face.font : fontkit.create(bytes);
  },
} as unknown as typeof fontkitModule;

/** Index into fontFaces() of the face that draws `codePoint`, or -1 when none does. */
export function faceFor(codePoint: number): number {
  const all = fontFaces();
  for (let i = 0; i < all.length; i++) if (all[i]!.font.hasGlyphForCodePoint(codePoint)) return i;
  return -1;
}

/** Whitespace never needs a glyph of its own (it only advances); everything else does. */
const IGNORED = /\s/u;

/** The distinct characters of `text` that no card font can draw, in order of appearance. */
export function unprintableCharacters(text: string): string[] {
  const missing = new Set<string>();
  for (const ch of text) {
    if (IGNORED.test(ch)) continue;
    if (faceFor(ch.codePointAt(0)!) < 0) missing.add(ch);
  }
  return [...missing];
}

/** "김 (U+AE40)" */
export function describeCharacter(ch: string): string {
  return `${ch} (U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")})`;
}
