import { PDFArray, PDFDict, PDFNumber, StandardFontEmbedder, StandardFonts } from "pdf-lib";
import type { PdfReader } from "./pdf-objects";

export type FontInfo = {
  /** BaseFont without a subset tag ("ABCDEF+Helvetica" -> "Helvetica"). */
  name: string;
  subtype: string;
  embedded: boolean;
};

/**
 * Whether a font's glyph programs travel inside the file. Type3 glyphs are
 * content streams, so always embedded; composite (Type0) fonts carry the
 * program on their descendant; everything else on its FontDescriptor
 * (FontFile, FontFile2 or FontFile3). The standard 14 fonts usually have no
 * descriptor at all: the printer substitutes whatever it has.
 */
/** The dictionary that carries the FontDescriptor (and a composite font's W and DW): a Type0 font's first descendant, else the font itself. */
function descriptorHolderOf(r: PdfReader, font: PDFDict, subtype: string): PDFDict | undefined {
  if (subtype !== "Type0") return font;
  const descendants = r.get(font, "DescendantFonts");
  const first = descendants instanceof PDFArray ? r.resolve(descendants.get(0)) : undefined;
  return first instanceof PDFDict ? first : undefined;
}

export function fontInfo(r: PdfReader, font: PDFDict): FontInfo {
  const subtype = r.nameOf(font, "Subtype") ?? "unknown";
  const base = r.nameOf(font, "BaseFont") ?? r.nameOf(r.dict(font, "FontDescriptor"), "FontName") ?? (subtype === "Type3" ? "Type3 font" : "unnamed font");
  const name = base.replace(/^[A-Z]{6}\+/, "");
  if (subtype === "Type3") return { name, subtype, embedded: true };
  const descriptorHolder = descriptorHolderOf(r, font, subtype);
  const descriptor = r.dict(descriptorHolder, "FontDescriptor");
  const embedded = !!descriptor && ["FontFile", "FontFile2", "FontFile3"].some((k) => r.stream(descriptor, k) !== undefined);
  return { name, subtype, embedded };
}

/** What text layout needs of a font: advance widths (per 1,000 units of size), code length, and vertical extent. */
export type FontMetrics = {
  bytesPerCode: 1 | 2;
  width(code: number): number;
  /** Above and below the baseline, per 1,000 units of size (descent negative). */
  ascent: number;
  descent: number;
  /** The text a code stands for, from the font's ToUnicode map (simple fonts without one: the byte as Latin-1). */
  unicode(code: number): string;
};

const STANDARD_FONTS = new Set<string>(Object.values(StandardFonts));
const standardEmbedders = new Map<string, StandardFontEmbedder>();

/**
 * Advance widths as a PDF reader lays text out (ISO 32000 9.2.4): a simple
 * font's Widths from FirstChar (MissingWidth elsewhere), a composite font's W
 * array with DW (two-byte codes, as Identity-H and most CJK CMaps use), a Type3
 * font's Widths through its FontMatrix. The standard 14 fonts may come without
 * Widths: their AFM metrics (pdf-lib's copy) fill in. Anything else unknown
 * counts half an em per character.
 */
export function fontMetrics(r: PdfReader, font: PDFDict): FontMetrics {
  const subtype = r.nameOf(font, "Subtype") ?? "unknown";
  const descriptorHolder = descriptorHolderOf(r, font, subtype);
  const descriptor = r.dict(descriptorHolder, "FontDescriptor");
  const ascent = r.number(descriptor, "Ascent") || 750;
  const descent = r.number(descriptor, "Descent") || -250;
  const map = toUnicodeMap(r, font);
  const latin1 = (c: number) => (c >= 32 && c < 127) || c >= 160 ? String.fromCharCode(c) : " ";

  if (subtype === "Type0") {
    const dw = r.number(descriptorHolder, "DW") ?? 1000;
    const widths = new Map<number, number>();
    const w = r.array(descriptorHolder, "W");
    const items = w ? w.asArray().map((o) => r.resolve(o)) : [];
    for (let i = 0; i < items.length; ) {
      const first = numberOf(items[i]);
      const next = items[i + 1];
      if (first === undefined) break;
      if (next instanceof PDFArray) {
        next.asArray().forEach((v, k) => {
          const n = numberOf(r.resolve(v));
          if (n !== undefined && widths.size < 65_536) widths.set(first + k, n);
        });
        i += 2;
      } else {
        const last = numberOf(next);
        const value = numberOf(items[i + 2]);
        if (last === undefined || value === undefined) break;
        for (let c = first; c <= last && widths.size < 65_536; c++) widths.set(c, value);
        i += 3;
      }
    }
    return { bytesPerCode: 2, width: (c) => widths.get(c) ?? dw, ascent, descent, unicode: (c) => map?.get(c) ?? "" };
  }

  const firstChar = r.number(font, "FirstChar") ?? 0;
  const widthArray = r.numbers(r.array(font, "Widths"));
  const missing = r.number(descriptor, "MissingWidth");
  let scale = 1;
  if (subtype === "Type3") {
    const fm = r.numbers(r.array(font, "FontMatrix"));
    scale = fm && fm.length === 6 ? Math.abs(fm[0]!) * 1000 : 1;
  }
  if (widthArray && widthArray.length > 0) {
    return { bytesPerCode: 1, width: (c) => (widthArray[c - firstChar] ?? missing ?? 500) * scale, ascent, descent, unicode: (c) => map?.get(c) ?? latin1(c) };
  }
  const base = (r.nameOf(font, "BaseFont") ?? "").replace(/^[A-Z]{6}\+/, "");
  if (STANDARD_FONTS.has(base)) {
    let embedder = standardEmbedders.get(base);
    if (!embedder) standardEmbedders.set(base, (embedder = StandardFontEmbedder.for(base as unknown as Parameters<typeof StandardFontEmbedder.for>[0])));
    const std = embedder;
    const cache = new Map<number, number>();
    const width = (c: number) => {
      let v = cache.get(c);
      if (v === undefined) {
        try {
          v = std.widthOfTextAtSize(String.fromCharCode(c), 1000);
        } catch {
          v = 500;
        }
        cache.set(c, v);
      }
      return v;
    };
    const heights = { ascent: std.font.Ascender ?? 718, descent: std.font.Descender ?? -207 };
    return { bytesPerCode: 1, width, ...heights, unicode: (c) => map?.get(c) ?? latin1(c) };
  }
  return { bytesPerCode: 1, width: () => missing ?? 500, ascent, descent, unicode: (c) => map?.get(c) ?? latin1(c) };
}

/**
 * The font's ToUnicode CMap as code -> text (bfchar and bfrange entries, as
 * pdf-lib, Office and most producers write them); undefined without one or
 * when it cannot be read. Only for naming the text in messages.
 */
function toUnicodeMap(r: PdfReader, font: PDFDict): Map<number, string> | undefined {
  const stream = r.stream(font, "ToUnicode");
  if (!stream) return undefined;
  let text: string;
  try {
    text = Buffer.from(r.bytes(stream)).toString("latin1");
  } catch {
    return undefined;
  }
  const map = new Map<number, string>();
  const utf16 = (hex: string) => {
    const units: number[] = [];
    for (let i = 0; i + 4 <= hex.length; i += 4) units.push(parseInt(hex.slice(i, i + 4), 16));
    return String.fromCharCode(...units);
  };
  for (const block of text.matchAll(/beginbfchar([\s\S]*?)endbfchar/g)) {
    for (const m of block[1]!.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]*)>/g)) map.set(parseInt(m[1]!, 16), utf16(m[2]!));
  }
  for (const block of text.matchAll(/beginbfrange([\s\S]*?)endbfrange/g)) {
    for (const m of block[1]!.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*(<[0-9a-fA-F]*>|\[[^\]]*\])/g)) {
      const lo = parseInt(m[1]!, 16);
      const hi = Math.min(parseInt(m[2]!, 16), lo + 65_535);
      const dst = m[3]!;
      if (dst.startsWith("[")) {
        [...dst.matchAll(/<([0-9a-fA-F]*)>/g)].forEach((d, k) => lo + k <= hi && map.set(lo + k, utf16(d[1]!)));
      } else {
        const base = dst.slice(1, -1);
        const start = parseInt(base.slice(-4) || "0", 16);
        for (let c = lo; c <= hi; c++) map.set(c, utf16(base.slice(0, -4)) + String.fromCharCode(start + (c - lo)));
      }
    }
  }
  return map;
}

function numberOf(o: unknown): number | undefined {
  return o instanceof PDFNumber ? o.asNumber() : undefined;
}
