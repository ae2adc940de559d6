// Every QR on every page must scan to its subject: the PDFs are rendered with
// pdfjs-dist (Mozilla's PDF.js, painting on @napi-rs/canvas) and every card is
// decoded with ZXing-C++ (zxing-wasm), both independent of what writes them
// (pdf-lib, qrcode). Names are checked in the text pdfjs extracts through the
// fonts' Unicode maps; the fonts' dictionaries are inspected directly. npm
// packages only: no system tool is needed.
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import sharp from "sharp";
import * as fontkit from "@pdf-lib/fontkit";
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, PDFRef, type PDFObject } from "pdf-lib";
import * as generate from "@/app/v1/services/studio/qr/generate/route";
import * as uploads from "@/app/v1/uploads/route";
import * as served from "@/app/files/[...key]/route";
import { parseQrPayload, qrPayload } from "@/lib/services/qr/payload";
import { PAGE_SIZES, cardCells, cardsPerPage, type Layout, type PageSize } from "@/lib/services/qr/layouts";
import { call, testAccount } from "../http";
import { forEachRenderedPage, pdfText } from "../support/pdf-render";
import { scanQrCodes } from "../support/qr-scan";

type Subject = { student_id: string; name: string; class_name?: string };

const UNICODE_NAMES = ["Zoë Ørsted-Nguyễn", "山田 太郎", "José Álvarez", "Łukasz Żółć", "Ngô Bảo Châu", "Ólafur Þórðarson", "Αλέξανδρος Παπαδόπουλος", "Анна Иванова", "佐藤 花子", "O'Brien, Siobhán"];

function roster(n: number): Subject[] {
  return Array.from({ length: n }, (_, i) => ({
    // Ids with characters the payload must escape, so decoding proves it round-trips.
    student_id: i % 5 === 0 ? `S:${100000 + i}` : `S${100000 + i}`,
    name: i < UNICODE_NAMES.length ? UNICODE_NAMES[i]! : `Student ${i}`,
    class_name: `Grade ${1 + (i % 6)}`,
  }));
}

async function generatePdf(token: string, body: Record<string, unknown>) {
  const res = await call(generate, "POST", "/v1/services/studio/qr/generate", { token, body });
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  const u = new URL(res.json.pdf_url);
  const file = await served.GET(new Request(u), { params: Promise.resolve({ key: u.pathname.replace(/^\/files\//, "").split("/") }) });
  return { json: res.json, pdf: Buffer.from(await file.arrayBuffer()) };
}

/**
 * Renders every page with pdfjs, cuts it into cards as a guillotine would
 * (the cells of the layout), and decodes every card with ZXing: what each
 * card says, by page and cell. Card by card is how they are scanned in use,
 * and a card that reads only alongside its neighbours would not pass.
 */
async function decodeEveryCard(pdf: Buffer, layout: Layout, pageSize: PageSize, dpi: number): Promise<Map<string, string[]>> {
  const scale = dpi / 72;
  const pageHeight = PAGE_SIZES[pageSize].height;
  const found = new Map<string, string[]>();
  await forEachRenderedPage(pdf, dpi, async (page) => {
    for (const [c, cell] of cardCells(layout, pageSize).entries()) {
      const left = Math.max(0, Math.round(cell.x * scale));
      const top = Math.max(0, Math.round((pageHeight - cell.y - cell.height) * scale));
      const card = page.crop(left, top, Math.round(cell.width * scale), Math.round(cell.height * scale));
      found.set(`${page.pageNumber}/${c}`, await scanQrCodes(card));
    }
  });
  return found;
}

/** Card c of page p says exactly its subject's payload; empty cells say nothing; every payload names the job and one subject. */
function expectEveryCardScans(found: Map<string, string[]>, jobId: string, subjects: Subject[], layout: Layout) {
  const perPage = cardsPerPage(layout);
  const pages = Math.ceil(subjects.length / perPage);
  for (let p = 1; p <= pages; p++) {
    for (let c = 0; c < perPage; c++) {
      const subject = subjects[(p - 1) * perPage + c];
      expect(found.get(`${p}/${c}`) ?? [], `page ${p}, card ${c + 1}`).toEqual(subject ? [qrPayload(jobId, subject.student_id)] : []);
    }
  }
  const decoded = [...found.values()].flat().map((t) => parseQrPayload(t)!);
  expect(decoded.every((d) => d.jobId === jobId)).toBe(true);
  expect(decoded.map((d) => d.studentId).sort()).toEqual(subjects.map((s) => s.student_id).sort());
}

const nameOf = (o: PDFObject | undefined) => (o instanceof PDFName ? o.decodeText() : undefined);

/**
 * Checks the fonts are each embedded once, as subsets, with Unicode maps (what
 * pdffonts reports as "CID TrueType, Identity-H, emb yes, sub yes, uni yes"),
 * and that every embedded glyph decodes to an outline.
 */
async function expectSoundFonts(pdf: Buffer) {
  const doc = await PDFDocument.load(pdf);
  const lookup = (o: PDFObject | undefined) => (o instanceof PDFRef ? doc.context.lookup(o) : o);
  const streamBytes = (stream: PDFRawStream) => {
    const filter = nameOf(stream.dict.get(PDFName.of("Filter")));
    expect(filter === undefined || filter === "FlateDecode", `stream filter ${filter}`).toBe(true);
    return filter ? zlib.inflateSync(Buffer.from(stream.getContents())) : Buffer.from(stream.getContents());
  };

  // Each font is one object in the file (the descendant CIDFonts aside), and
  // every page uses those by reference: two fonts however many pages.
  const topFonts = new Map<string, PDFDict>();
  for (const [ref, object] of doc.context.enumerateIndirectObjects()) {
    if (object instanceof PDFDict && nameOf(object.get(PDFName.of("Type"))) === "Font" && nameOf(object.get(PDFName.of("Subtype"))) !== "CIDFontType2") {
      topFonts.set(ref.toString(), object);
    }
  }
  expect(topFonts.size).toBe(2);
  let pageFontUses = 0;
  for (const [p, page] of doc.getPages().entries()) {
    const fonts = lookup(page.node.Resources()?.get(PDFName.of("Font")));
    if (!(fonts instanceof PDFDict)) continue;
    for (const ref of fonts.values()) {
      expect(topFonts.has(ref.toString()), `page ${p + 1} font ${ref.toString()}`).toBe(true);
      pageFontUses++;
    }
  }
  expect(pageFontUses).toBeGreaterThanOrEqual(doc.getPageCount());

  let glyphsWithOutlines = 0;
  for (const font of topFonts.values()) {
    const baseFont = nameOf(font.get(PDFName.of("BaseFont")));
    expect(nameOf(font.get(PDFName.of("Subtype"))), baseFont).toBe("Type0");
    expect(nameOf(font.get(PDFName.of("Encoding"))), baseFont).toBe("Identity-H");
    // Subset: a six-capital-letter tag before the name.
    expect(baseFont).toMatch(/^[A-Z]{6}\+\S+$/);
    // Unicode map: a CMap stream that maps codes to text.
    const toUnicode = lookup(font.get(PDFName.of("ToUnicode")));
    expect(toUnicode, `${baseFont} ToUnicode`).toBeInstanceOf(PDFRawStream);
    const cmap = streamBytes(toUnicode as PDFRawStream).toString("latin1");
    expect(cmap).toContain("begincmap");
    expect(cmap).toMatch(/beginbf(char|range)/);

    const descendants = lookup(font.get(PDFName.of("DescendantFonts")));
    expect(descendants).toBeInstanceOf(PDFArray);
    expect((descendants as PDFArray).size()).toBe(1);
    const cid = lookup((descendants as PDFArray).get(0)) as PDFDict;
    expect(nameOf(cid.get(PDFName.of("Subtype"))), baseFont).toBe("CIDFontType2");
    expect(nameOf(cid.get(PDFName.of("BaseFont")))).toBe(baseFont);
    const descriptor = lookup(cid.get(PDFName.of("FontDescriptor"))) as PDFDict;
    expect(nameOf(descriptor.get(PDFName.of("FontName")))).toBe(baseFont);
    // Embedded: the TrueType program itself.
    const file = lookup(descriptor.get(PDFName.of("FontFile2")));
    expect(file, `${baseFont} FontFile2`).toBeInstanceOf(PDFRawStream);
    const program = fontkit.create(streamBytes(file as PDFRawStream));
    for (let gid = 1; gid < program.numGlyphs; gid++) {
      const glyph = program.getGlyph(gid);
      if ((glyph.path as unknown as { commands: unknown[] }).commands.length > 0) glyphsWithOutlines++;
    }
  }
  expect(glyphsWithOutlines).toBeGreaterThan(20);
}

function countImages(doc: PDFDocument): number {
  let images = 0;
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    const dict = object instanceof PDFRawStream ? object.dict : object instanceof PDFDict ? object : null;
    if (dict?.get(PDFName.of("Subtype"))?.toString() === "/Image") images++;
  }
  return images;
}

describe("QR cards scan and read back", () => {
  it.each([
    ["single", "letter", 4],
    ["4up", "letter", 11],
    ["9up", "letter", 22],
    ["9up", "a4", 10],
  ] as const)("%s on %s: every QR on every page decodes to its subject; names, classes and ids are text", async (layout, pageSize, n) => {
    const { token } = await testAccount({ tokens: 100, plan: "premium" });
    const logo = await sharp({ create: { width: 300, height: 150, channels: 3, background: { r: 10, g: 90, b: 160 } } }).png().toBuffer();
    const form = new FormData();
    form.append("file", new File([new Uint8Array(logo)], "logo.png", { type: "image/png" }));
    const logoUrl = (await call(uploads, "POST", "/v1/uploads", { token, rawBody: form })).json.url;
    const subjects = roster(n);
    const { pdf, json } = await generatePdf(token, { job_id: "Spring:2026 École", school_name: "Lincoln Elementary", layout, page_size: pageSize, logo_url: logoUrl, subjects });
    expect(json.pages).toBe(Math.ceil(n / cardsPerPage(layout)));

    expectEveryCardScans(await decodeEveryCard(pdf, layout, pageSize, 100), "Spring:2026 École", subjects, layout);

    const text = (await pdfText(pdf)).replace(/\s+/g, " ");
    for (const s of subjects) {
      expect(text).toContain(s.name);
      expect(text).toContain(`ID ${s.student_id}`);
      expect(text).toContain(s.class_name!);
    }
    expect(text).toContain("Lincoln Elementary");
    await expectSoundFonts(pdf);
    // The QR codes are vector paths: the only image in the file is the logo, embedded once.
    expect(countImages(await PDFDocument.load(pdf))).toBe(1);
    // Rendering and decoding take a while on a shared machine; the first case also opens the database.
  }, 180_000);

  it("a 2,000-subject roster in 9up: all 223 pages, every card scans, every name is text", async () => {
    const { token } = await testAccount({ tokens: 2000, plan: "premium" });
    const subjects = roster(2000);
    const started = performance.now();
    const { pdf, json } = await generatePdf(token, { job_id: "BIG-2026", layout: "9up", subjects });
    const seconds = (performance.now() - started) / 1000;
    expect(json).toMatchObject({ total_subjects: 2000, tokens_deducted: 2000, pages: 223 });
    // Generous here (tests share the machine); bench/qr-bench.ts measures the real figure.
    expect(seconds).toBeLessThan(10);
    expect(pdf.byteLength / 2000).toBeLessThan(1500);

    expectEveryCardScans(await decodeEveryCard(pdf, "9up", "letter", 100), "BIG-2026", subjects, "9up");
    const text = (await pdfText(pdf)).replace(/\s+/g, " ");
    for (const s of subjects) expect(text).toContain(s.name);
    await expectSoundFonts(pdf);
    expect(countImages(await PDFDocument.load(pdf))).toBe(0);
  }, 300_000);
});
