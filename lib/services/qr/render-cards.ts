import crypto from "node:crypto";
import zlib from "node:zlib";
import { PDFDocument, PDFName, type PDFDict } from "pdf-lib";
import { NAME_LEADING, NAME_MAX_LINES, cardDesign, type CardDesign } from "./card-design";
import { cachedFontkit, fontFaces } from "@/lib/engines/pdf/card-fonts/fonts";
import { CUT_MARK_GAP, CUT_MARK_LENGTH, PAGE_SIZES, cardCells, cardsPerPage, cutLines, type Layout, type PageSize } from "./layouts";
import { qrPayload } from "./payload";
import { qrMatrix, qrPathOps, versionFor } from "./qr-matrix";
import { facesUsed, fitText, hexOf, num, showRuns, type DocFonts, type FittedText } from "./text-runs";

/** `gallery`: the child's gallery access code and the link that opens it (lib/services/galleries/card-codes.ts), printed with its own QR. */
export type CardSubject = { student_id: string; name: string; class_name?: string | null; gallery?: CardGallery | null };
export type CardGallery = { code: string; url: string };
export const galleryCodeLine = (code: string) => `Gallery code ${code}`;
/** A logo already decoded and re-encoded as PNG (see load-logo.ts). */
export type CardLogo = { png: Buffer; width: number; height: number };

export type RenderInput = {
  jobId: string;
  schoolName?: string | null;
  layout: Layout;
  pageSize: PageSize;
  logo?: CardLogo | null;
  subjects: CardSubject[];
  /** Drawn across every page (the free preview). */
  watermark?: string;
};

const PAGES_PER_TICK = 16;
/**
 * Simple faces draw one precomposed glyph per character. With the font's
 * glyph-composition feature on, fontkit splits "ị" into "i" and a dot below,
 * whose "i" glyph is shared with the plain letter (and maps back to "i" alone
 * when the text is extracted or searched).
 */
const NO_DECOMPOSITION = { ccmp: false };
const NAME_GREY = "0 g";
const DETAIL_GREY = "0.3 g";
const SCHOOL_GREY = "0.2 g";

/**
 * Print-ready QR card sheets. Built for speed on big rosters: each font is
 * embedded once and subset to the glyphs used; the cut marks and the card
 * header (logo, school name) are Form XObjects drawn by reference on every
 * page and card; pages share one resource dictionary; content streams are
 * written as operator text and deflated natively. The output grows linearly
 * with the number of subjects (about 2 to 3 KB each).
 */
export async function renderQrCards(input: RenderInput): Promise<{ pdf: Uint8Array; pages: number }> {
  const { layout, pageSize, subjects } = input;
  const page = PAGE_SIZES[pageSize];
  const doc = await PDFDocument.create();
  doc.setTitle(`QR cards: ${input.jobId}`);
  doc.setCreator("Print Studio Bulk QR");
  doc.registerFontkit(cachedFontkit);
  // Only the faces this document's text needs, each embedded once and subset to
  // the glyphs printed. "ABCDEF+Name" is how PDF marks a subset font (ISO 32000
  // 9.6.4); prepress tools look for it.
  const texts = [input.schoolName ?? "", input.watermark ?? "", ...subjects.flatMap((s) => [s.name, s.class_name ?? "", `ID ${s.student_id}`, s.gallery ? galleryCodeLine(s.gallery.code) : ""])];
  const used = facesUsed(texts);
  const fonts: DocFonts = await Promise.all(
    fontFaces().map((f, i) => (used.has(i) ? doc.embedFont(f.bytes, { subset: true, customName: `${subsetTag()}+${f.font.postscriptName}`, ...(f.shaped ? {} : { features: NO_DECOMPOSITION }) }) : undefined)),
  );
  const fontNames = fonts.map((_, i) => `F${i}`);
  const ctx = doc.context;

  const payloads = subjects.map((s) => qrPayload(input.jobId, s.student_id));
  const version = versionFor(payloads);
  const cells = cardCells(layout, pageSize);
  const hasHeader = !!(input.schoolName || input.logo);
  const links = subjects.flatMap((s) => (s.gallery ? [s.gallery.url] : []));
  const galleryVersion = links.length ? versionFor(links) : 0;
  const galleryModules = galleryVersion ? 17 + 4 * galleryVersion : 0;
  // Every card of a document has the same design: room for as many name lines as its longest name takes.
  const base = cardDesign(cells[0]!.width, cells[0]!.height, 17 + 4 * version, hasHeader, 1, galleryModules);
  const names = subjects.map((s) => fitText(s.name, fonts, base.name.size, base.textWidth, { maxLines: NAME_MAX_LINES }));
  const nameLines = Math.max(1, ...names.map((n) => n.lines.length));
  const design = nameLines > 1 ? cardDesign(cells[0]!.width, cells[0]!.height, 17 + 4 * version, hasHeader, nameLines, galleryModules) : base;

  const fontDict = ctx.obj({}) as PDFDict;
  fonts.forEach((f, i) => f && fontDict.set(PDFName.of(fontNames[i]!), f.ref));
  const xObjects = ctx.obj({}) as PDFDict;
  const form = (ops: string, width: number, height: number, resources?: PDFDict) =>
    ctx.register(ctx.stream(zlib.deflateSync(ops), { Type: "XObject", Subtype: "Form", BBox: [0, 0, width, height], Filter: "FlateDecode", ...(resources ? { Resources: resources } : {}) }));

  xObjects.set(PDFName.of("Marks"), form(cutMarkOps(layout, pageSize), page.width, page.height));
  if (hasHeader) {
    const headerResources = ctx.obj({ Font: fontDict }) as PDFDict;
    let logo: { name: string; width: number; height: number } | undefined;
    if (input.logo) {
      const image = await doc.embedPng(input.logo.png);
      headerResources.set(PDFName.of("XObject"), ctx.obj({ Logo: image.ref }));
      logo = { name: "Logo", width: input.logo.width, height: input.logo.height };
    }
    const ops = headerOps(design, cells[0]!.width, input.schoolName ?? "", logo, fonts, fontNames);
    xObjects.set(PDFName.of("Hdr"), form(ops, cells[0]!.width, cells[0]!.height, headerResources));
  }
  const resources = ctx.register(ctx.obj({ Font: fontDict, XObject: xObjects, ExtGState: { Wm: { Type: "ExtGState", ca: 0.35 } } }));

  const perPage = cardsPerPage(layout);
  const pageCount = Math.max(1, Math.ceil(subjects.length / perPage));
  for (let p = 0; p < pageCount; p++) {
    // Let other requests in between batches of pages: a 2,000-card run is about a
    // second of CPU, which would otherwise stall the whole server (pdf-lib's save
    // yields the same way while writing).
    if (p > 0 && p % PAGES_PER_TICK === 0) await new Promise((resolve) => setImmediate(resolve));
    let ops = "/Marks Do\n";
    for (let i = 0; i < perPage; i++) {
      const index = p * perPage + i;
      const subject = subjects[index];
      if (!subject) break;
      const cell = cells[i]!;
      ops += `q 1 0 0 1 ${num(cell.x)} ${num(cell.y)} cm\n`;
      if (hasHeader) ops += "/Hdr Do\n";
      const galleryQr = subject.gallery ? qrPathOps(qrMatrix(subject.gallery.url, galleryVersion)) : null;
      ops += cardOps(design, subject, names[index]!, qrPathOps(qrMatrix(payloads[index]!, version)), galleryQr, fonts, fontNames);
      ops += "Q\n";
    }
    if (input.watermark) ops += watermarkOps(input.watermark, page.width, page.height, fonts, fontNames);
    const content = ctx.register(ctx.stream(zlib.deflateSync(ops), { Filter: "FlateDecode" }));
    const pdfPage = doc.addPage([page.width, page.height]);
    pdfPage.node.set(PDFName.of("Resources"), resources);
    pdfPage.node.set(PDFName.of("Contents"), content);
  }
  return { pdf: await doc.save(), pages: pageCount };
}

function subsetTag(): string {
  return Array.from(crypto.randomBytes(6), (b) => String.fromCharCode(65 + (b % 26))).join("");
}

/** Each line centred in the text block; the last line sits on `baseline`, earlier ones stack above it. */
function centredLines(fit: FittedText, baseline: number, d: CardDesign, fonts: DocFonts, names: string[]): string {
  let ops = "";
  fit.lines.forEach((line, i) => {
    const y = baseline + (fit.lines.length - 1 - i) * NAME_LEADING * fit.size;
    ops += showRuns(line.runs, fonts, names, fit.size, d.textLeft + (d.textWidth - line.width) / 2, y);
  });
  return ops;
}

const qrAt = (box: { x: number; y: number; module: number }, pathOps: string) => `q ${num(box.module)} 0 0 ${num(box.module)} ${num(box.x)} ${num(box.y)} cm 0 g\n${pathOps}Q\n`;

function cardOps(d: CardDesign, subject: CardSubject, name: FittedText, qrOps: string, galleryQrOps: string | null, fonts: DocFonts, names: string[]): string {
  let ops = qrAt(d.qr, qrOps);
  const line = (text: string, spec: { baseline: number; size: number }, grey: string) => `${grey}\n${centredLines(fitText(text, fonts, spec.size, d.textWidth), spec.baseline, d, fonts, names)}`;
  ops += `${NAME_GREY}\n${centredLines(name, d.name.baseline, d, fonts, names)}`;
  if (subject.class_name) ops += line(subject.class_name, d.className, DETAIL_GREY);
  ops += line(`ID ${subject.student_id}`, d.studentId, DETAIL_GREY);
  if (d.gallery && subject.gallery && galleryQrOps) {
    ops += line(galleryCodeLine(subject.gallery.code), d.gallery.line, NAME_GREY);
    ops += qrAt(d.gallery.qr, galleryQrOps);
  }
  return ops;
}

function headerOps(d: CardDesign, cardWidth: number, school: string, logo: { name: string; width: number; height: number } | undefined, fonts: DocFonts, names: string[]): string {
  const header = d.header!;
  let ops = "";
  let textLeft = d.inset;
  if (logo) {
    const scale = Math.min(d.logoMaxWidth / logo.width, header.height / logo.height);
    const w = logo.width * scale;
    const h = logo.height * scale;
    ops += `q ${num(w)} 0 0 ${num(h)} ${num(d.inset)} ${num(header.top - header.height + (header.height - h) / 2)} cm /${logo.name} Do Q\n`;
    textLeft = d.inset + w + 0.3 * header.height;
  }
  if (school) {
    const maxWidth = cardWidth - d.inset - textLeft;
    const fit = fitText(school, fonts, d.schoolSize, maxWidth);
    const line = fit.lines[0]!;
    // Alone, the school name is centred; beside a logo it starts after it.
    const x = logo ? textLeft : (cardWidth - line.width) / 2;
    const baseline = header.top - header.height / 2 - 0.35 * fit.size;
    ops += `${SCHOOL_GREY}\n${showRuns(line.runs, fonts, names, fit.size, x, baseline)}`;
  }
  return ops;
}

/** Hairline marks in the margin on the extension of every cut line, clear of the cards themselves. */
function cutMarkOps(layout: Layout, pageSize: PageSize): string {
  const page = PAGE_SIZES[pageSize];
  const { xs, ys } = cutLines(layout, pageSize);
  const top = ys[ys.length - 1]!;
  const bottom = ys[0]!;
  const left = xs[0]!;
  const right = xs[xs.length - 1]!;
  const segments: string[] = [];
  const seg = (x1: number, y1: number, x2: number, y2: number) => segments.push(`${num(x1)} ${num(y1)} m ${num(x2)} ${num(y2)} l`);
  for (const x of xs) {
    seg(x, top + CUT_MARK_GAP, x, Math.min(page.height, top + CUT_MARK_GAP + CUT_MARK_LENGTH));
    seg(x, bottom - CUT_MARK_GAP, x, Math.max(0, bottom - CUT_MARK_GAP - CUT_MARK_LENGTH));
  }
  for (const y of ys) {
    seg(left - CUT_MARK_GAP, y, Math.max(0, left - CUT_MARK_GAP - CUT_MARK_LENGTH), y);
    seg(right + CUT_MARK_GAP, y, Math.min(page.width, right + CUT_MARK_GAP + CUT_MARK_LENGTH), y);
  }
  return `q 0.5 w 0 G\n${segments.join("\n")}\nS\nQ\n`;
}

function watermarkOps(text: string, width: number, height: number, fonts: DocFonts, names: string[]): string {
  const size = Math.min(width, height) / 5;
  const fit = fitText(text, fonts, size, Math.hypot(width, height) * 0.8);
  const line = fit.lines[0]!;
  const angle = Math.atan2(height, width);
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const x = width / 2 - (line.width / 2) * cos + 0.35 * fit.size * sin;
  const y = height / 2 - (line.width / 2) * sin - 0.35 * fit.size * cos;
  let ops = `q /Wm gs 0.85 0 0 rg BT ${num(cos)} ${num(sin)} ${num(-sin)} ${num(cos)} ${num(x)} ${num(y)} Tm`;
  for (const run of line.runs) ops += ` /${names[run.face]} ${num(fit.size)} Tf ${hexOf(fonts, run)} Tj`;
  return `${ops} ET Q\n`;
}
