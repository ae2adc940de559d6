import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cmyk, PDFDocument, rgb, StandardFonts } from "pdf-lib";
import { testAccount } from "../http";
import { addPrintPage, colorPdf, embeddedFont, fontsPdf } from "../fixtures/preflight/pdf-fixtures";
import { forEachRenderedPage } from "../support/pdf-render";
import { hasPoppler, poppler, walkPdf } from "../support/pdf-walk";
import { balanceOf, fetchOwn, reportFor, runFixJob, startTestRunner, stopTestRunner } from "../jobs/fixes-harness";
import { getDb } from "@/lib/foundation/db/client";
import { storage } from "@/lib/domain/storage";
import { getReportRow } from "@/lib/services/preflight/reports";
import { hasSystemGhostscript } from "../support/ghostscript";

// PDF fixes: bleed with pdf-lib, prepress with Ghostscript pdfwrite in a child
// process (system gs and the WebAssembly build). Each is checked again by our
// preflight, by a walk of the output's objects, and by poppler when installed.

const PRINT = { canvasWidthInches: 8, canvasHeightInches: 10, productProfile: { requiredDpi: 300, requiredColorMode: "cmyk", bleedMm: 3 } };
const MM = 72 / 25.4;
const POPPLER = hasPoppler();
const SYSTEM_GS = hasSystemGhostscript();
if (!POPPLER) console.warn("[ai-fix-pdf] poppler-utils (pdffonts, pdfimages) not installed: those independent checks are skipped; the object walk still runs.");

beforeAll(async () => {
  await startTestRunner();
});
afterAll(async () => {
  await stopTestRunner();
  delete process.env.GHOSTSCRIPT_ENGINE;
});

async function render(pdf: Uint8Array, dpi: number) {
  const pages: { width: number; height: number; crop: (l: number, t: number, w: number, h: number) => { data: Uint8ClampedArray } }[] = [];
  const shots: { data: Uint8ClampedArray; width: number; height: number }[] = [];
  await forEachRenderedPage(pdf, dpi, (p) => {
    pages.push(p);
    shots.push({ ...p.crop(0, 0, p.width, p.height), width: p.width, height: p.height });
  });
  return shots;
}

describe("PDF bleed", () => {
  it("extends every page by the bleed, stretching its edges; trim area unchanged; TrimBox kept, BleedBox set", async () => {
    const { token } = await testAccount({ tokens: 1000 });
    const doc = await PDFDocument.create();
    const page = addPrintPage(doc, 8, 10);
    page.drawRectangle({ x: 0, y: 0, width: 576, height: 720, color: cmyk(0.1, 0.2, 0.6, 0) });
    page.drawRectangle({ x: 0, y: 300, width: 200, height: 100, color: cmyk(0.9, 0.2, 0, 0) }); // touches the left edge
    const source = Buffer.from(await doc.save());
    const report = await reportFor(token, source, PRINT);
    expect(report.issues.map((i: any) => i.code)).toEqual(["missing_bleed"]);
    const job = await runFixJob(token, { preflightReportId: report.reportId });
    expect(job).toMatchObject({ status: "completed", tokensDeducted: 150, tier: "pdf_bleed" });
    expect(job.recheck).toMatchObject({ resolved: ["missing_bleed"], remaining: [], status: "pass" });
    const out = await fetchOwn(job.correctedFileUrl);
    expect(out.contentType).toBe("application/pdf");
    const fixed = await PDFDocument.load(out.body);
    const p = fixed.getPage(0);
    const b = 3 * MM;
    expect(p.getTrimBox()).toMatchObject({ x: expect.closeTo(b, 3), y: expect.closeTo(b, 3), width: 576, height: 720 });
    expect(p.getBleedBox()).toMatchObject({ x: 0, y: 0, width: expect.closeTo(576 + 2 * b, 3) });
    // Pictures at 36 dpi: the trim area equals the original page, the left strip continues the blue bar.
    const [before] = await render(source, 36);
    const [after] = await render(out.body, 36);
    const off = Math.round((3 / 25.4) * 36);
    let diff = 0;
    for (let y = 2; y < before!.height - 2; y += 3)
      for (let x = 2; x < before!.width - 2; x += 3) diff += Math.abs(before!.data[(y * before!.width + x) * 4]! - after!.data[((y + off) * after!.width + x + off) * 4]!);
    expect(diff / (((before!.height - 4) / 3) * ((before!.width - 4) / 3))).toBeLessThan(2);
    const barRow = off + Math.round(((720 - 350) / 72) * 36);
    expect(after!.data[(barRow * after!.width + 1) * 4]!).toBeLessThan(100); // the cyan bar stretched, not the light background
  });
});

describe("PDF prepress (Ghostscript pdfwrite)", () => {
  for (const engine of ["system", "wasm"] as const) {
    it.skipIf(engine === "system" && !SYSTEM_GS)(`${engine} gs: fonts embedded, RGB and spot colours to DeviceCMYK; re-check clean`, async () => {
      process.env.GHOSTSCRIPT_ENGINE = engine;
      const { token } = await testAccount({ tokens: 1000 });
      for (const [name, make, codes] of [
        ["fonts", fontsPdf, ["font_not_embedded"]],
        ["colours", colorPdf, ["color_mode_mismatch", "spot_color"]],
      ] as const) {
        const report = await reportFor(token, await make(), PRINT);
        const job = await runFixJob(token, { preflightReportId: report.reportId });
        expect(job.status, `${name}: ${job.errorMessage}`).toBe("completed");
        expect(job.tier).toBe("pdf_prepress");
        expect(job.tokensDeducted).toBe(300);
        expect(job.fixesApplied[0].params.engine).toBe(`gs-${engine}`);
        expect(job.recheck.unfixed).toEqual([]);
        for (const code of codes) expect(job.recheck.resolved).toContain(code);
        const out = (await fetchOwn(job.correctedFileUrl)).body;
        const walk = await walkPdf(out);
        expect(walk.fontsWithoutFile).toEqual([]);
        expect(walk.deviceRgb).toBe(0);
        if (POPPLER) {
          const fonts = poppler("pdffonts", [], out).split("\n").slice(2).filter(Boolean);
          for (const line of fonts) expect(line.split(/\s+/).at(-5), line).toBe("yes"); // emb column
          const images = poppler("pdfimages", ["-list"], out).split("\n").slice(2).filter(Boolean);
          for (const line of images) expect(line.split(/\s+/)[5], line).not.toBe("rgb"); // color column
        }
      }
    }, 180_000);
  }

  it("pure RGB black becomes black ink only; images above 300 ppi come down to 300", async () => {
    process.env.GHOSTSCRIPT_ENGINE = SYSTEM_GS ? "system" : "wasm";
    const { token } = await testAccount({ tokens: 1000 });
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const page = addPrintPage(doc, 8, 10, 3);
    page.drawText("Black text", { x: 72, y: 500, size: 24, font, color: rgb(0, 0, 0) });
    const sharp = (await import("sharp")).default;
    const photo = await sharp({ create: { width: 1200, height: 900, channels: 3, background: "#000", noise: { type: "gaussian", mean: 128, sigma: 30 } } }).jpeg().toBuffer();
    page.drawImage(await doc.embedJpg(photo), { x: 72, y: 72, width: 144, height: 108 }); // 600 ppi
    const report = await reportFor(token, Buffer.from(await doc.save()), PRINT);
    const job = await runFixJob(token, { preflightReportId: report.reportId });
    expect(job.status, job.errorMessage).toBe("completed");
    expect(job.recheck.unfixed).toEqual([]);
    const out = (await fetchOwn(job.correctedFileUrl)).body;
    const walk = await walkPdf(out);
    expect(walk.contentText).not.toMatch(/0\.7\d* 0\.6\d* 0\.6\d* 0\.8\d* k/); // no rich black
    expect(walk.contentText).toMatch(/(^|\s)0 g(\s|$)|0 0 0 1 k/);
    if (POPPLER) {
      const images = poppler("pdfimages", ["-list"], out).split("\n").slice(2).filter(Boolean);
      expect(images).toHaveLength(1);
      const [, , , width, , color, , , , , , xppi] = images[0]!.trim().split(/\s+/);
      expect(color).toBe("cmyk");
      expect(Number(width)).toBeLessThanOrEqual(601);
      expect(Number(xppi)).toBeLessThanOrEqual(301);
    }
  }, 120_000);

  it("flattens only the pages that use transparency, at 600 ppi, and says which; other pages stay vector with their fonts", async () => {
    process.env.GHOSTSCRIPT_ENGINE = SYSTEM_GS ? "system" : "wasm";
    const { token } = await testAccount({ tokens: 1000 });
    const doc = await PDFDocument.create();
    const font = await embeddedFont(doc);
    addPrintPage(doc, 8, 10, 3).drawText("Vector page", { x: 72, y: 500, size: 24, font, color: cmyk(0, 0, 0, 1) });
    const p2 = addPrintPage(doc, 8, 10, 3);
    p2.drawText("Transparent page", { x: 72, y: 500, size: 24, font, color: cmyk(0, 0, 0, 1) });
    p2.drawRectangle({ x: 72, y: 72, width: 100, height: 100, color: cmyk(0, 1, 0, 0), opacity: 0.5 });
    const report = await reportFor(token, Buffer.from(await doc.save()), PRINT);
    expect(report.issues.map((i: any) => [i.code, i.page])).toEqual([["transparency", 2]]);
    const job = await runFixJob(token, { preflightReportId: report.reportId });
    expect(job.status, job.errorMessage).toBe("completed");
    expect(job.flattenedPages).toEqual([2]);
    expect(job.recheck).toMatchObject({ resolved: ["transparency"], unfixed: [] });
    const out = (await fetchOwn(job.correctedFileUrl)).body;
    const fixed = await PDFDocument.load(out);
    expect(fixed.getPageCount()).toBe(2);
    if (POPPLER) {
      const fonts = poppler("pdffonts", ["-f", "1", "-l", "1"], out);
      expect(fonts).toMatch(/yes/);
      expect(poppler("pdffonts", ["-f", "2", "-l", "2"], out).split("\n").slice(2).filter(Boolean)).toEqual([]);
      const images = poppler("pdfimages", ["-list", "-f", "2", "-l", "2"], out).split("\n").slice(2).filter(Boolean);
      expect(images.length).toBeGreaterThan(0);
    }
  }, 120_000);

  it("a stored PDF that no longer reads fails the job with a message and a refund", async () => {
    process.env.GHOSTSCRIPT_ENGINE = SYSTEM_GS ? "system" : "wasm";
    const { token, account } = await testAccount({ tokens: 1000 });
    const report = await reportFor(token, await fontsPdf(), PRINT);
    // The stored copy is replaced by bytes no PDF reader can use (the analysis saw a good file).
    const row = await getReportRow(await getDb(), account.id, report.reportId);
    await storage().put(row.fileStorageKey, Buffer.from("%PDF-1.4\n%garbage that is not a PDF at all\n"), "application/pdf");
    const job = await runFixJob(token, { preflightReportId: report.reportId });
    expect(job.status).toBe("failed");
    expect(job.errorMessage).toMatch(/could not be read for its prepress conversion/);
    expect(await balanceOf(token)).toBe(1000);
  }, 120_000);

  it.skipIf(!SYSTEM_GS)("Ghostscript failing to start (retried, then failed) refunds once", async () => {
    process.env.GHOSTSCRIPT_ENGINE = "system";
    const { token } = await testAccount({ tokens: 1000 });
    const report = await reportFor(token, await fontsPdf(), PRINT);
    const path = process.env.PATH;
    process.env.PATH = "/nonexistent"; // `gs` cannot be found when the job spawns it
    try {
      const job = await runFixJob(token, { preflightReportId: report.reportId });
      expect(job.status).toBe("failed");
      expect(job.errorMessage).toMatch(/prepress engine is not available/);
    } finally {
      process.env.PATH = path;
    }
    expect(await balanceOf(token)).toBe(1000);
  }, 120_000);
});
