// Every QR on every page must scan to its subject: the PDFs are rasterised with
// poppler (pdftoppm) and decoded with ZBar (zbarimg), both real, independent
// tools (Debian packages poppler-utils and zbar-tools). Names are checked with
// pdftotext, fonts with pdffonts.
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import sharp from "sharp";
import * as fontkit from "@pdf-lib/fontkit";
import { PDFDict, PDFDocument, PDFName, PDFRawStream } from "pdf-lib";
import * as generate from "@/app/v1/services/studio/qr/generate/route";
import * as uploads from "@/app/v1/uploads/route";
import * as served from "@/app/files/[...key]/route";
import { parseQrPayload, qrPayload } from "@/lib/services/qr/payload";
import { PAGE_SIZES, cardCells, cardsPerPage, type Layout, type PageSize } from "@/lib/services/qr/layouts";
import { call, testAccount } from "../http";

for (const tool of ["pdftoppm", "pdftotext", "pdffonts", "zbarimg"]) {
  try {
    execFileSync("which", [tool], { stdio: "ignore" });
  } catch {
    throw new Error(`${tool} is needed by this test: apt-get install -y poppler-utils zbar-tools`);
  }
}

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
 * Renders every page with pdftoppm, cuts it into cards as a guillotine would
 * (the cells of the layout), and decodes every card with zbarimg: what each
 * card says, by page and cell. Card by card is how they are scanned in use;
 * ZBar on a whole page of nine codes occasionally skips one it reads fine alone.
 */
async function decodeEveryCard(pdf: Buffer, layout: Layout, pageSize: PageSize, dpi: number): Promise<Map<string, string[]>> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "qr-decode-"));
  try {
    fs.writeFileSync(path.join(dir, "cards.pdf"), pdf);
    execFileSync("pdftoppm", ["-r", String(dpi), "-gray", "-png", path.join(dir, "cards.pdf"), path.join(dir, "page")]);
    const pages = fs.readdirSync(dir).filter((f) => f.endsWith(".png")).sort();
    const scale = dpi / 72;
    const pageHeight = PAGE_SIZES[pageSize].height;
    const crops: string[] = [];
    for (const [p, file] of pages.entries()) {
      const image = sharp(path.join(dir, file));
      const { width, height } = await image.metadata();
      for (const [c, cell] of cardCells(layout, pageSize).entries()) {
        const left = Math.max(0, Math.round(cell.x * scale));
        const top = Math.max(0, Math.round((pageHeight - cell.y - cell.height) * scale));
        const crop = path.join(dir, `card-${p + 1}-${c}.png`);
        await image
          .clone()
          .extract({ left, top, width: Math.min(width! - left, Math.round(cell.width * scale)), height: Math.min(height! - top, Math.round(cell.height * scale)) })
          .toFile(crop);
        crops.push(crop);
      }
    }
    // Exit status 4 means "some image had no code": the empty cells of a last page.
    const run = spawnSync("zbarimg", ["--xml", "-q", "-Sdisable", "-Sqrcode.enable", ...crops], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
    if (run.status !== 0 && run.status !== 4) throw new Error(`zbarimg failed (${run.status}): ${run.stderr.slice(0, 500)}`);
    const xml = run.stdout;
    const found = new Map<string, string[]>();
    for (const source of xml.split("<source href=").slice(1)) {
      const [, page, cell] = /card-(\d+)-(\d+)\.png/.exec(source)!;
      found.set(`${page}/${cell}`, [...source.matchAll(/<data><!\[CDATA\[([\s\S]*?)\]\]><\/data>/g)].map((m) => m[1]!));
    }
    return found;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function pdfTool(tool: "pdftotext" | "pdffonts", pdf: Buffer): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "qr-text-")), "cards.pdf");
  fs.writeFileSync(file, pdf);
  try {
    return execFileSync(tool, tool === "pdftotext" ? [file, "-"] : [file], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  } finally {
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }
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

/** Checks the fonts are each embedded once, as subsets, and that every embedded glyph decodes to an outline. */
async function expectSoundFonts(pdf: Buffer) {
  const list = pdfTool("pdffonts", pdf).trim().split("\n").slice(2);
  expect(list).toHaveLength(2);
  for (const line of list) expect(line).toMatch(/CID TrueType\s+Identity-H\s+yes\s+yes\s+yes/);
  const doc = await PDFDocument.load(pdf);
  let glyphsWithOutlines = 0;
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFDict) || !object.has(PDFName.of("FontFile2"))) continue;
    const stream = doc.context.lookup(object.get(PDFName.of("FontFile2"))) as PDFRawStream;
    const font = fontkit.create(zlib.inflateSync(Buffer.from(stream.getContents())));
    for (let gid = 1; gid < font.numGlyphs; gid++) {
      const glyph = font.getGlyph(gid);
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

    const text = pdfTool("pdftotext", pdf).replace(/\s+/g, " ");
    for (const s of subjects) {
      expect(text).toContain(s.name);
      expect(text).toContain(`ID ${s.student_id}`);
      expect(text).toContain(s.class_name!);
    }
    expect(text).toContain("Lincoln Elementary");
    await expectSoundFonts(pdf);
    // The QR codes are vector paths: the only image in the file is the logo, embedded once.
    expect(countImages(await PDFDocument.load(pdf))).toBe(1);
    // Rasterising and decoding take a while on a shared machine; the first case also opens the database.
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
    const text = pdfTool("pdftotext", pdf).replace(/\s+/g, " ");
    for (const s of subjects) expect(text).toContain(s.name);
    await expectSoundFonts(pdf);
    expect(countImages(await PDFDocument.load(pdf))).toBe(0);
  }, 300_000);
});
