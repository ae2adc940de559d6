import { ParseSpeeds, PDFArray, PDFDocument, PDFStream } from "pdf-lib";
import type { ColorFamily } from "./color-space";
import { ContentTooComplexError, ContentWalker, type ImagePlacement, type PaintedObject } from "./content-walker";
import { PdfReader } from "./pdf-objects";
import { readPageBoxes, type PageBoxes } from "./page-boxes";

export type PdfPageAnalysis = {
  page: number;
  boxes: PageBoxes;
  images: ImagePlacement[];
  colors: { label: string; family: ColorFamily; spotNames?: string[]; sources: string[] }[];
  transparency: string[];
  /** Fonts showing visible text on this page. */
  fonts: { name: string; subtype: string; embedded: boolean }[];
  damaged: string[];
  /** Text runs, paths and images with their bounds (see PaintedObject). */
  objects: PaintedObject[];
};

export type PdfAnalysis =
  | { kind: "ok"; pageCount: number; pdfVersion: string; pages: PdfPageAnalysis[] }
  | { kind: "encrypted"; pageCount?: number }
  | { kind: "unreadable"; reason: string }
  | { kind: "too_many_pages"; pageCount: number; maxPages: number }
  | { kind: "too_complex"; page: number; reason: string };

/**
 * Everything the preflight rules need from a PDF, page by page: boxes, every
 * image placement with its effective resolution, colour spaces painted with,
 * transparency used and fonts showing visible text. Engine only: no
 * thresholds or messages here (see lib/services/preflight/pdf-issues.ts).
 */
export async function analyzePdf(bytes: Uint8Array, opts: { maxPages: number }): Promise<PdfAnalysis> {
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false, throwOnInvalidObject: false, parseSpeed: ParseSpeeds.Fastest });
  } catch (err) {
    return { kind: "unreadable", reason: (err as Error).message.split("\n")[0]!.slice(0, 300) };
  }
  let pageCount: number;
  let pages: ReturnType<PDFDocument["getPages"]>;
  try {
    pages = doc.getPages();
    pageCount = pages.length;
  } catch (err) {
    if (doc.isEncrypted) return { kind: "encrypted" };
    return { kind: "unreadable", reason: `the page tree is broken (${(err as Error).message.split("\n")[0]!.slice(0, 200)})` };
  }
  // Encrypted content cannot be read without decrypting it; printers refuse such files anyway.
  if (doc.isEncrypted) return { kind: "encrypted", pageCount };
  if (pageCount === 0) return { kind: "unreadable", reason: "the document has no pages" };
  if (pageCount > opts.maxPages) return { kind: "too_many_pages", pageCount, maxPages: opts.maxPages };

  const r = new PdfReader(doc.context);
  const walker = new ContentWalker(r);
  const out: PdfPageAnalysis[] = [];
  for (let i = 0; i < pages.length; i++) {
    const node = pages[i]!.node;
    const boxes = readPageBoxes(r, node);
    const contents: Uint8Array[] = [];
    const damagedStreams: string[] = [];
    const rawContents = r.get(node, "Contents");
    const streams = rawContents instanceof PDFArray ? rawContents.asArray().map((o) => r.resolve(o)) : [rawContents];
    for (const s of streams) {
      if (!(s instanceof PDFStream)) continue;
      try {
        contents.push(r.bytes(s));
        // Streams of one page are concatenated as if one: keep a separator between them.
        contents.push(SPACE);
      } catch (err) {
        damagedStreams.push(`the page content could not be decoded (${(err as Error).message.split("\n")[0]})`);
      }
    }
    let findings;
    try {
      findings = walker.walkPage([concat(contents)], r.dict(node, "Resources"), r.array(node, "Annots"));
    } catch (err) {
      if (err instanceof ContentTooComplexError) return { kind: "too_complex", page: i + 1, reason: err.message };
      throw err;
    }
    out.push({
      page: i + 1,
      boxes,
      images: findings.images,
      colors: [...findings.colors.values()].map(({ use, sources }) => ({ label: use.label, family: use.family, spotNames: use.spotNames, sources: [...sources] })),
      transparency: [...findings.transparency],
      fonts: [...findings.fonts.values()],
      damaged: [...damagedStreams, ...findings.damaged],
      objects: findings.objects,
    });
  }
  return { kind: "ok", pageCount, pdfVersion: /%PDF-(\d+\.\d+)/.exec(doc.context.header.toString())?.[1] ?? "unknown", pages: out };
}

const SPACE = Uint8Array.of(0x0a);

function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 2) return parts[0]!;
  const total = parts.reduce((n, p) => n + p.length, 0);
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
