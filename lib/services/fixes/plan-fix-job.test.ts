import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/foundation/http/api-error";
import type { preflightReports } from "@/lib/foundation/db/schema";
import { planFixJob } from "./plan-fix-job";

type Row = typeof preflightReports.$inferSelect;
const issue = (code: string, fixTypes: string[] = [], details: Record<string, unknown> = {}, page?: number) => ({ code, severity: "error" as const, message: code, fixTypes, details, ...(page ? { page } : {}) });
const row = (fileType: string, issues: Row["issues"], params: Row["params"] = {}, facts: Row["facts"] = { widthPx: 1000, heightPx: 800 }): Row =>
  ({ id: "rpt_1", accountId: "acc_1", designId: "d", status: "fail", fileType, fileMime: "", fileSize: 1, fileStorageKey: "k", params, facts, issues, analysisMs: 1, seq: 1, createdAt: new Date() }) as Row;

function refusal(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error("not refused");
}

describe("planFixJob", () => {
  it("prices PDFs by tier: bleed only 150, any prepress step 300 (fonts have no fix type of their own)", () => {
    const bleed = issue("missing_bleed", ["add_bleed"]);
    const fonts = issue("font_not_embedded", [], { prepressFix: "embed_fonts" }, 2);
    expect(planFixJob(row("pdf", [bleed], { bleedMm: 3 }))).toMatchObject({ tier: "pdf_bleed", price: 150, fixTypes: ["add_bleed"], prepressSteps: [] });
    expect(planFixJob(row("pdf", [fonts]))).toMatchObject({ tier: "pdf_prepress", price: 300, fixTypes: [] });
    expect(planFixJob(row("pdf", [bleed, fonts], { bleedMm: 3 })).price).toBe(300);
    expect(planFixJob(row("pdf", [bleed, fonts], { bleedMm: 3 }), { fixTypes: ["add_bleed"] }).price).toBe(150);
    expect(planFixJob(row("pdf", [bleed], { bleedMm: 3 }), { fixTypes: ["convert_color_mode"] }).price).toBe(300);
    expect(planFixJob(row("png", [issue("transparency", ["remove_transparency"])])).price).toBe(200);
  });

  it("refuses files that cannot be worked on: a 20k x 20k image, encrypted or over-long PDFs", () => {
    expect(refusal(() => planFixJob(row("png", [issue("image_too_large"), issue("transparency", ["remove_transparency"])]))).code).toBe("FILE_NOT_FIXABLE");
    for (const code of ["pdf_encrypted", "too_many_pages", "content_too_complex", "file_corrupt"]) expect(refusal(() => planFixJob(row("pdf", [issue(code)]))).code).toBe("FILE_NOT_FIXABLE");
    // A damaged page among good ones does not stop the file being fixed.
    expect(planFixJob(row("pdf", [issue("file_corrupt", [], {}, 2), issue("font_not_embedded", [], { prepressFix: "embed_fonts" })])).tier).toBe("pdf_prepress");
  });

  it("refuses an output over the pixel limit, and raster-only fixes on a PDF", () => {
    const big = row("jpeg", [issue("low_resolution", ["upscale_resolution_4x"])], {}, { widthPx: 8000, heightPx: 6000 });
    expect(refusal(() => planFixJob(big)).code).toBe("OUTPUT_TOO_LARGE");
    expect(refusal(() => planFixJob(row("pdf", [issue("missing_bleed", ["add_bleed"])], { bleedMm: 3 }), { fixTypes: ["resize_to_spec"] })).details).toMatchObject({ fixType: "resize_to_spec" });
  });

  it("uses targetDpi, else the report's requiredDpi", () => {
    const r = row("png", [issue("transparency", ["remove_transparency"])], { requiredDpi: 240 });
    expect(planFixJob(r).targetDpi).toBe(240);
    expect(planFixJob(r, { targetDpi: 600 }).targetDpi).toBe(600);
  });
});
