import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testAccount } from "../http";
import { HIDDEN_PROBLEMS, hiddenProblemsPdf } from "../fixtures/preflight/pdf-fixtures";
import { hasPoppler, poppler } from "../support/pdf-walk";
import { approveFixJob, createFixJob, fetchOwn, pollFixJob, reportFor, startTestRunner, stopTestRunner } from "../jobs/fixes-harness";
import { hasSystemGhostscript } from "../support/ghostscript";

// Issue 33, item 3: an AI fix must not hide problems as pixels. The fixed file
// is read back with poppler (pdftotext, pdfimages), independent of pdf-lib and
// of our own preflight, and the re-check must still list what the fix could
// not repair (text near the trim, an 83 ppi photo).

const PRINT = { canvasWidthInches: 8, canvasHeightInches: 10, productProfile: { requiredDpi: 300, requiredColorMode: "cmyk", bleedMm: 3 } };
const MM = 72 / 25.4;
const POPPLER = hasPoppler();
// pdfjs reads no text from Ghostscript's output fonts here, so poppler is the independent reader (CI installs it).
if (!POPPLER) console.warn("[ai-fix-pdf-honest] poppler-utils (pdftotext, pdftoppm, pdfimages) not installed: the independent read-back of the fixed file is skipped; the job and re-check checks still run.");

beforeAll(async () => {
  process.env.GHOSTSCRIPT_ENGINE = hasSystemGhostscript() ? "system" : "wasm";
  await startTestRunner();
});
afterAll(async () => {
  await stopTestRunner();
  delete process.env.GHOSTSCRIPT_ENGINE;
});

/** Reviewed and approved, as the studio does it. */
async function fixWithReview(token: string, reportId: string) {
  const created = await createFixJob(token, { preflightReportId: reportId, options: { review: true } });
  expect(created.status, created.text).toBe(202);
  const staged = await pollFixJob(token, created.json.data.jobId, 240_000);
  expect(staged.status, staged.errorMessage).toBe("awaiting_approval");
  const approved = await approveFixJob(token, staged.jobId);
  expect(approved.status, approved.text).toBe(200);
  const done = await pollFixJob(token, staged.jobId, 240_000);
  expect(done.status, done.errorMessage).toBe("completed");
  return { staged, done };
}

/** Words and their boxes (points, origin top-left) per page, from poppler's pdftotext -bbox. */
function popplerWords(pdf: Uint8Array): { page: number; word: string; x0: number; y0: number; x1: number; y1: number; pageW: number; pageH: number }[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pdftotext-"));
  let html: string;
  try {
    fs.writeFileSync(path.join(dir, "in.pdf"), pdf);
    html = execFileSync("pdftotext", ["-bbox", "-q", path.join(dir, "in.pdf"), "-"], { encoding: "utf8", timeout: 60_000 });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const out: ReturnType<typeof popplerWords> = [];
  let page = 0;
  let pageW = 0;
  let pageH = 0;
  for (const m of html.matchAll(/<page width="([\d.]+)" height="([\d.]+)">|<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)) {
    if (m[1]) {
      page++;
      pageW = Number(m[1]);
      pageH = Number(m[2]);
    } else out.push({ page, word: m[7]!, x0: Number(m[3]), y0: Number(m[4]), x1: Number(m[5]), y1: Number(m[6]), pageW, pageH });
  }
  return out;
}

/** Grey pixels of one page rendered by poppler's pdftoppm at `dpi` (row by row). */
function popplerGray(pdf: Uint8Array, page: number, dpi: number): { data: Buffer; width: number; height: number } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pdftoppm-"));
  try {
    fs.writeFileSync(path.join(dir, "in.pdf"), pdf);
    execFileSync("pdftoppm", ["-gray", "-r", String(dpi), "-f", String(page), "-l", String(page), "-singlefile", path.join(dir, "in.pdf"), path.join(dir, "out")], { timeout: 60_000 });
    const pgm = fs.readFileSync(path.join(dir, "out.pgm"));
    const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(pgm.subarray(0, 64).toString("latin1"))!;
    return { width: Number(header[1]), height: Number(header[2]), data: pgm.subarray(header[0].length) };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const b = 3 * MM;

describe("AI fix of issue 33's file (text 0.7 mm from the trim, an 83 ppi photo)", () => {
  it("keeps text as text and the photo's own pixels, puts no mirrored text in the bleed, and the re-check still lists what it could not fix", async () => {
    const { token } = await testAccount({ tokens: 2000 });
    const source = await hiddenProblemsPdf({ alpha: "opaque" });
    const report = await reportFor(token, source, PRINT);
    const codes = report.issues.map((i: any) => `${i.code}@${i.page}`);
    expect(codes).toEqual(expect.arrayContaining(["missing_bleed@1", "missing_bleed@2", "content_in_safe_margin@1", "content_in_safe_margin@2", "low_resolution@2", "color_mode_mismatch@1"]));
    // An all-opaque soft mask is not transparency: nothing to flatten.
    expect(codes.filter((c: string) => c.startsWith("transparency"))).toEqual([]);

    const { staged, done } = await fixWithReview(token, report.reportId);
    const out = (await fetchOwn(done.correctedFileUrl)).body;
    expect(done.flattenedPages ?? []).toEqual([]);

    if (POPPLER) {
      // Text is still text on both pages, each word once and none in the bleed.
      const words = popplerWords(out);
      expect(words.filter((w) => w.page === 1).map((w) => w.word).join(" ")).toBe(HIDDEN_PROBLEMS.headline);
      expect(words.filter((w) => w.page === 2).map((w) => w.word).join(" ")).toBe(HIDDEN_PROBLEMS.caption);
      const inBleed = words.filter((w) => w.x0 < b - 0.5 || w.y0 < b - 0.5 || w.x1 > w.pageW - b + 0.5 || w.y1 > w.pageH - b + 0.5);
      expect(inBleed).toEqual([]);
      // The bleed strips as printed: page 1's left strip is its background colour all along (no mirrored headline),
      // page 2's right strip is white (the caption stops 0.7 mm short of the edge).
      const dpi = 144;
      const strip = Math.floor((3 / 25.4) * dpi) - 1;
      for (const [page, side] of [[1, "left"], [2, "right"]] as const) {
        const g = popplerGray(out, page, dpi);
        const values: number[] = [];
        for (let y = strip + 2; y < g.height - strip - 2; y++)
          for (let x = 0; x < strip; x++) values.push(g.data[y * g.width + (side === "left" ? x : g.width - 1 - x)]!);
        expect(Math.min(...values), `page ${page} ${side} bleed`).toBeGreaterThan(side === "left" ? 200 : 250);
        expect(Math.max(...values) - Math.min(...values), `page ${page} ${side} bleed is one colour`).toBeLessThan(6);
      }
      // The photo is still its own 415 x 332 px at 83 ppi, not a page-sized raster.
      const images = poppler("pdfimages", ["-list", "-f", "2", "-l", "2"], out).split("\n").slice(2).filter(Boolean).map((l) => l.trim().split(/\s+/));
      // (Listed once per tile that draws it: the bleed tiles reuse the same image object, clipped to their strip.)
      const photos = images.filter((c, n) => c[2] === "image" && images.findIndex((d) => d[10] === c[10]) === n);
      expect(photos).toHaveLength(1);
      expect(Number(photos[0]![3])).toBe(HIDDEN_PROBLEMS.photoPx[0]);
      expect(Number(photos[0]![12])).toBeLessThan(90);
    }

    // The re-check reads the fixed file: what a fix cannot repair is still listed, and the report is not a pass.
    expect(done.recheck.resolved).toEqual(expect.arrayContaining(["missing_bleed", "color_mode_mismatch"]));
    expect(done.recheck.remaining).toEqual(expect.arrayContaining(["content_in_safe_margin", "low_resolution"]));
    expect(done.recheck.status).toBe("fail");
    // The job says which problems it cannot repair, and why.
    const cannot = done.recheck.notFixable.map((n: any) => `${n.code}@${n.page}`);
    expect(cannot).toEqual(expect.arrayContaining(["content_in_safe_margin@1", "content_in_safe_margin@2", "low_resolution@2"]));
    expect(done.recheck.notFixable.find((n: any) => n.code === "low_resolution").message).toMatch(/cannot be given detail/);
    // Notes claim only what was done: the fonts were embedded already, no image was above 300 ppi.
    for (const step of [...staged.suggestions, ...done.fixesApplied]) {
      expect(step.description).not.toMatch(/font/i);
      expect(step.description).not.toMatch(/brought .* down/i);
      expect(step.prepressSteps ?? []).not.toContain("embed_fonts");
    }
    expect(done.fixesApplied.find((f: any) => f.fixType === "add_bleed").description).not.toMatch(/mirror/i);
  }, 600_000);

  it("really transparent: the page is flattened and the job says so, but its text near the trim and its 83 ppi photo stay listed", async () => {
    const { token } = await testAccount({ tokens: 2000 });
    const report = await reportFor(token, await hiddenProblemsPdf({ alpha: "fading" }), PRINT);
    expect(report.issues.map((i: any) => `${i.code}@${i.page}`)).toContain("transparency@2");
    const { done } = await fixWithReview(token, report.reportId);
    expect(done.flattenedPages).toEqual([2]);
    const prepress = done.fixesApplied.find((f: any) => f.prepressSteps);
    expect(prepress.prepressSteps).toContain("flatten_transparency");
    expect(prepress.description).toMatch(/page 2 by turning that page into one 600 ppi image, so its text is no longer text/);
    // Resolution and safety margin are not "resolved" by the pixels: carried over, the report still fails.
    expect(done.recheck.resolved).toContain("transparency");
    expect(done.recheck.remaining).toEqual(expect.arrayContaining(["content_in_safe_margin", "low_resolution"]));
    expect(done.recheck.status).toBe("fail");
    expect(done.recheck.notFixable.map((n: any) => `${n.code}@${n.page}`)).toEqual(expect.arrayContaining(["low_resolution@2", "content_in_safe_margin@2", "content_in_safe_margin@1"]));
    const out = (await fetchOwn(done.correctedFileUrl)).body;
    if (POPPLER) {
      const words = popplerWords(out);
      // Page 1 kept its text; page 2 is the one image it was said to become, at 600 ppi.
      expect(words.filter((w) => w.page === 1).map((w) => w.word).join(" ")).toBe(HIDDEN_PROBLEMS.headline);
      const images = poppler("pdfimages", ["-list", "-f", "2", "-l", "2"], out).split("\n").slice(2).filter(Boolean).map((l) => l.trim().split(/\s+/));
      expect(Math.max(...images.map((c) => Number(c[12])))).toBeGreaterThanOrEqual(599);
    }
  }, 600_000);
});
