import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/foundation/db/client";
import { storage } from "@/lib/domain/storage";
import { getReportRow } from "@/lib/services/preflight/reports";
import { endFixJobWithRefund } from "@/lib/services/fixes/finish-job";
import { testAccount } from "../http";
import { deleteReport } from "../fixtures/preflight/api";
import { cleanPdf, encryptedPdf, missingBleedPdf, fontsPdf } from "../fixtures/preflight/pdf-fixtures";
import { balanceOf, createFixJob, getFixJob, ledgerOf, photoLike, pollFixJob, reportFor, startTestRunner, stopTestRunner } from "../jobs/fixes-harness";

// Prices per tier, the 402 body, refusals that cost nothing, cross-account
// 404s, and exactly one refund when a job fails after it was paid for.

const canvas = { canvasWidthInches: 2, canvasHeightInches: 1.6 };
const PDF_PRINT = { canvasWidthInches: 8, canvasHeightInches: 10, productProfile: { requiredDpi: 300, requiredColorMode: "cmyk", bleedMm: 3 } };

beforeAll(async () => {
  await startTestRunner();
});
afterAll(async () => {
  await stopTestRunner();
});

describe("AI fix job billing", () => {
  it("debits the flat price of each tier at creation, in one ledger row referencing the job", async () => {
    const { token } = await testAccount({ tokens: 1000 });
    const raster = await reportFor(token, await photoLike(300, 240), canvas);
    const bleed = await reportFor(token, await missingBleedPdf(), PDF_PRINT);
    const fonts = await reportFor(token, await fontsPdf(), PDF_PRINT);
    const cases = [
      [raster.reportId, {}, 200],
      [bleed.reportId, { fixTypes: ["add_bleed"] }, 150],
      [fonts.reportId, {}, 300],
    ] as const;
    let balance = 1000;
    for (const [reportId, options, price] of cases) {
      const res = await createFixJob(token, { preflightReportId: reportId, options });
      expect(res.status, res.text).toBe(202);
      expect(res.json.data).toMatchObject({ status: "analyzing", estimatedTokenCost: { min: price, max: price }, tokensDeducted: price });
      balance -= price;
      expect(await balanceOf(token)).toBe(balance);
      const debit = (await ledgerOf(token)).find((t) => t.reference === res.json.data.jobId);
      expect(debit).toMatchObject({ type: "debit", amount: -price, operation: "ai_fix" });
      await pollFixJob(token, res.json.data.jobId);
    }
  });

  it("a short balance is the contract's 402 and creates nothing", async () => {
    const { token } = await testAccount({ tokens: 150 });
    const report = await reportFor(token, await photoLike(300, 240), canvas);
    const res = await createFixJob(token, { preflightReportId: report.reportId });
    expect(res.status).toBe(402);
    expect(res.json).toMatchObject({ error: "INSUFFICIENT_TOKENS", balance: 150, shortfall: 50 });
    expect(typeof res.json.top_up_url).toBe("string");
    expect(await balanceOf(token)).toBe(150);
  });

  it("refusals are 4xx naming the field and cost nothing", async () => {
    const { token } = await testAccount({ tokens: 1000 });
    const other = await testAccount({ tokens: 1000 });
    const raster = await reportFor(token, await photoLike(300, 240), canvas);
    const clean = await reportFor(token, await photoLike(600, 480), canvas);
    const pdf = await reportFor(token, await missingBleedPdf(), PDF_PRINT);
    const cleanPdfReport = await reportFor(token, await cleanPdf(), PDF_PRINT);
    const foreign = await reportFor(other.token, await photoLike(300, 240), canvas);
    const expectRefusal = async (body: unknown, status: number, code: string, text?: RegExp) => {
      const res = await createFixJob(token, body);
      expect(res.status, res.text).toBe(status);
      expect(res.json.error).toBe(code);
      if (text) expect(res.json.message + JSON.stringify(res.json.details ?? {})).toMatch(text);
    };
    await expectRefusal({ preflightReportId: "rpt_nothere" }, 404, "NOT_FOUND");
    await expectRefusal({ preflightReportId: foreign.reportId }, 404, "NOT_FOUND");
    await expectRefusal({}, 400, "VALIDATION_ERROR", /preflightReportId/);
    for (const targetDpi of [0, 5000, "abc", 299.5]) await expectRefusal({ preflightReportId: raster.reportId, options: { targetDpi } }, 400, "VALIDATION_ERROR", /targetDpi/);
    await expectRefusal({ preflightReportId: raster.reportId, options: { fixTypes: ["make_it_pretty"] } }, 400, "VALIDATION_ERROR", /fixTypes/);
    await expectRefusal({ preflightReportId: raster.reportId, options: { colour: "red" } }, 400, "VALIDATION_ERROR", /colour/);
    for (const fixType of ["upscale_resolution_2x", "sharpen_edges", "resize_to_spec"]) {
      await expectRefusal({ preflightReportId: pdf.reportId, options: { fixTypes: [fixType] } }, 400, "FIX_NOT_APPLICABLE", new RegExp(fixType));
    }
    await expectRefusal({ preflightReportId: raster.reportId, options: { fixTypes: ["add_bleed"] } }, 400, "FIX_NOT_APPLICABLE", /bleedMm/);
    await expectRefusal({ preflightReportId: clean.reportId }, 400, "NOTHING_TO_FIX");
    await expectRefusal({ preflightReportId: cleanPdfReport.reportId }, 400, "NOTHING_TO_FIX");
    const huge = await reportFor(token, await photoLike(4000, 3000), { canvasWidthInches: 40, canvasHeightInches: 30 });
    await expectRefusal({ preflightReportId: huge.reportId, options: { fixTypes: ["resize_to_spec"], targetDpi: 2400 } }, 400, "OUTPUT_TOO_LARGE", /megapixels/);
    const encrypted = await reportFor(token, (await encryptedPdf()).bytes, PDF_PRINT);
    await expectRefusal({ preflightReportId: encrypted.reportId }, 400, "FILE_NOT_FIXABLE", /pdf_encrypted/);
    expect(await deleteReport(token, clean.reportId)).toMatchObject({ status: 204 });
    await expectRefusal({ preflightReportId: clean.reportId }, 404, "NOT_FOUND");
    expect(await balanceOf(token)).toBe(1000);
  });

  it("another account's job is a 404, never its data", async () => {
    const a = await testAccount({ tokens: 1000 });
    const b = await testAccount({ tokens: 1000 });
    const report = await reportFor(a.token, await photoLike(300, 240), canvas);
    const created = await createFixJob(a.token, { preflightReportId: report.reportId });
    const jobId = created.json.data.jobId;
    const res = await getFixJob(b.token, jobId);
    expect(res.status).toBe(404);
    expect(res.text).not.toContain(report.reportId);
    expect((await getFixJob(a.token, "job_nothere")).status).toBe(404);
    await pollFixJob(a.token, jobId);
  });

  it("a job whose file expired before it ran fails with a message and is refunded exactly once", async () => {
    const { token, account } = await testAccount({ tokens: 1000 });
    const report = await reportFor(token, await photoLike(300, 240), canvas);
    await stopTestRunner();
    const created = await createFixJob(token, { preflightReportId: report.reportId });
    expect(created.status).toBe(202);
    const row = await getReportRow(await getDb(), account.id, report.reportId);
    await storage().delete(row.fileStorageKey); // the stored copy expires meanwhile
    await startTestRunner();
    const job = await pollFixJob(token, created.json.data.jobId);
    expect(job).toMatchObject({ status: "failed", correctedFileUrl: null, completedAt: null });
    expect(job.errorMessage).toMatch(/no longer stored/);
    expect(await balanceOf(token)).toBe(1000);
    // The failure handler running again (a retried handler, a restart) refunds nothing more.
    const again = await endFixJobWithRefund(await getDb(), { jobId: job.jobId, accountId: account.id, status: "failed", message: "again" });
    expect(again.refunded).toBe(false);
    expect(await balanceOf(token)).toBe(1000);
    const refunds = (await ledgerOf(token)).filter((t) => t.type === "refund");
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ amount: 200, reference: job.jobId });
  });

  it("a report deleted before its job ran: failed and refunded", async () => {
    const { token } = await testAccount({ tokens: 1000 });
    const report = await reportFor(token, await photoLike(300, 240), canvas);
    await stopTestRunner();
    const created = await createFixJob(token, { preflightReportId: report.reportId });
    await deleteReport(token, report.reportId);
    await startTestRunner();
    const job = await pollFixJob(token, created.json.data.jobId);
    expect(job.status).toBe("failed");
    expect(job.errorMessage).toMatch(/report was deleted/);
    expect(await balanceOf(token)).toBe(1000);
  });
});
