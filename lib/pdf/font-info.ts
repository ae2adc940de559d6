import { PDFArray, PDFDict } from "pdf-lib";
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
export function fontInfo(r: PdfReader, font: PDFDict): FontInfo {
  const subtype = r.nameOf(font, "Subtype") ?? "unknown";
  const base = r.nameOf(font, "BaseFont") ?? r.nameOf(r.dict(font, "FontDescriptor"), "FontName") ?? (subtype === "Type3" ? "Type3 font" : "unnamed font");
  const name = base.replace(/^[A-Z]{6}\+/, "");
  if (subtype === "Type3") return { name, subtype, embedded: true };
  let descriptorHolder: PDFDict | undefined = font;
  if (subtype === "Type0") {
    const descendants = r.get(font, "DescendantFonts");
    const first = descendants instanceof PDFArray ? r.resolve(descendants.get(0)) : undefined;
    descriptorHolder = first instanceof PDFDict ? first : undefined;
  }
  const descriptor = r.dict(descriptorHolder, "FontDescriptor");
  const embedded = !!descriptor && ["FontFile", "FontFile2", "FontFile3"].some((k) => r.stream(descriptor, k) !== undefined);
  return { name, subtype, embedded };
}
