import { afterAll, beforeAll, describe, expect, it } from "vitest";
import sharp from "sharp";
import { readIccProfile } from "@/lib/engines/imaging/icc-profile";
import { testAccount } from "../http";
import { transparentPng, rotatedJpeg } from "../fixtures/preflight/raster-fixtures";
import { getReport } from "../fixtures/preflight/api";
import { balanceOf, fetchOwn, photoLike, reportFor, runFixJob, startTestRunner, stopTestRunner } from "../jobs/fixes-harness";

// Each raster fix on a generated defect fixture, through the API: the job
// completes, our own preflight no longer finds the issue, sharp's metadata
// agrees, and the pixels changed only where the fix should touch them.

beforeAll(async () => {
  await startTestRunner();
});
afterAll(async () => {
  await stopTestRunner();
});

const canvas = { canvasWidthInches: 2, canvasHeightInches: 1.6 };

async function raw(bytes: Buffer) {
  return sharp(bytes).removeAlpha().toColourspace("srgb").raw().toBuffer({ resolveWithObject: true });
}

/** Mean absolute difference per channel value (0-255) between two same-size rectangles. */
function meanDiff(a: { data: Buffer; info: { width: number; channels: number } }, b: { data: Buffer; info: { width: number; channels: number } }, box: { x: number; y: number; w: number; h: number }, offB = { x: 0, y: 0 }) {
  let sum = 0;
  const ch = Math.min(a.info.channels, b.info.channels, 3);
  for (let y = box.y; y < box.y + box.h; y++)
    for (let x = box.x; x < box.x + box.w; x++)
      for (let c = 0; c < ch; c++) sum += Math.abs(a.data[(y * a.info.width + x) * a.info.channels + c]! - b.data[((y + offB.y) * b.info.width + x + offB.x) * b.info.channels + c]!);
  return sum / (box.w * box.h * ch);
}

describe("raster AI fixes", () => {
  it("low resolution: 2x Lanczos upscale and print sharpening; re-check passes; looks the same", async () => {
    const { token } = await testAccount({ tokens: 1000 });
    const source = await photoLike(300, 240, "png");
    const report = await reportFor(token, source, canvas); // 150 ppi of 300
    expect(report.issues.map((i: any) => i.code)).toContain("low_resolution");
    const job = await runFixJob(token, { preflightReportId: report.reportId });
    expect(job.status).toBe("completed");
    expect(job.tokensDeducted).toBe(200);
    expect(await balanceOf(token)).toBe(800);
    expect(job.fixesApplied.map((f: any) => f.fixType)).toEqual(["upscale_resolution_2x", "sharpen_edges"]);
    expect(job.recheck).toMatchObject({ resolved: ["low_resolution"], unfixed: [], status: "pass" });
    expect(job.completedAt).toBeTruthy();
    expect(job.preview.beforeUrl).toBeTruthy();
    expect(job.preview.afterUrl).toBeTruthy();
    const out = await fetchOwn(job.correctedFileUrl);
    expect(out.contentType).toBe("image/png");
    const meta = await sharp(out.body).metadata();
    expect([meta.width, meta.height, meta.density]).toEqual([600, 480, 300]);
    // Same picture: the upscale brought back to the original size differs little.
    const back = await raw(await sharp(out.body).resize(300, 240, { kernel: "lanczos3" }).png().toBuffer());
    expect(meanDiff(await raw(source), back, { x: 0, y: 0, w: 300, h: 240 })).toBeLessThan(4);
  });

  it("transparency: flattened onto white, nothing else changes", async () => {
    const { token } = await testAccount({ tokens: 1000 });
    const hole = { x: 100, y: 150, w: 200, h: 100 };
    const source = await transparentPng(600, 480, hole);
    const report = await reportFor(token, source, canvas);
    const job = await runFixJob(token, { preflightReportId: report.reportId, options: { fixTypes: ["remove_transparency"] } });
    expect(job.status).toBe("completed");
    expect(job.recheck.resolved).toEqual(["transparency"]);
    expect(job.recheck.remaining).toEqual([]);
    // The re-check is a report of its own with a name of its own, numbered per file.
    expect((await getReport(token, job.recheck.reportId)).json.data.designId).toBe("design-1 (re-check 1)");
    const again = await runFixJob(token, { preflightReportId: report.reportId, options: { fixTypes: ["remove_transparency"] } });
    expect((await getReport(token, again.recheck.reportId)).json.data.designId).toBe("design-1 (re-check 2)");
    const out = await fetchOwn(job.correctedFileUrl);
    const meta = await sharp(out.body).metadata();
    expect(meta.hasAlpha).toBe(false);
    const after = await raw(out.body);
    const white = await raw(await sharp({ create: { width: 600, height: 480, channels: 3, background: "#fff" } }).png().toBuffer());
    expect(meanDiff(after, white, { x: hole.x, y: hole.y, w: hole.w, h: hole.h })).toBe(0);
    const before = await raw(source);
    expect(meanDiff(after, before, { x: 0, y: 0, w: 600, h: 100 })).toBe(0);
  });

  it("missing bleed: the edges are mirrored outward by 3 mm; the trim area is untouched", async () => {
    const { token } = await testAccount({ tokens: 1000 });
    const source = await photoLike(600, 480, "png");
    const report = await reportFor(token, source, { ...canvas, productProfile: { bleedMm: 3 } });
    expect(report.issues.map((i: any) => i.code)).toEqual(["missing_bleed"]);
    const job = await runFixJob(token, { preflightReportId: report.reportId });
    expect(job.recheck).toMatchObject({ resolved: ["missing_bleed"], remaining: [], status: "pass" });
    const px = job.fixesApplied[0].params.bleedPx;
    expect(px).toBe(36); // 3 mm at 300 ppi is 35.4 px: rounded up so the shape reaches the bleed
    const out = await fetchOwn(job.correctedFileUrl);
    const meta = await sharp(out.body).metadata();
    expect([meta.width, meta.height]).toEqual([600 + 2 * px, 480 + 2 * px]);
    const after = await raw(out.body);
    const before = await raw(source);
    expect(meanDiff(before, after, { x: 0, y: 0, w: 600, h: 480 }, { x: px, y: px })).toBe(0);
    // Left strip column k mirrors source column k (libvips mirror includes the edge pixel).
    let diff = 0;
    for (let y = 0; y < 480; y += 7) for (let k = 0; k < px; k++) diff += Math.abs(after.data[((y + px) * after.info.width + (px - 1 - k)) * 3]! - before.data[(y * 600 + k) * 3]!);
    expect(diff / ((480 / 7) * px)).toBeLessThan(1);
  });

  it("aspect ratio and EXIF orientation: resized to the canvas at targetDpi, cropped centred, upright", async () => {
    const { token } = await testAccount({ tokens: 1000 });
    const wide = await reportFor(token, await photoLike(900, 480), canvas);
    expect(wide.issues.map((i: any) => i.code)).toContain("aspect_ratio_mismatch");
    const job = await runFixJob(token, { preflightReportId: wide.reportId, options: { targetDpi: 200 } });
    expect(job.fixesApplied.map((f: any) => f.fixType)).toEqual(["resize_to_spec"]);
    let meta = await sharp((await fetchOwn(job.correctedFileUrl)).body).metadata();
    expect([meta.width, meta.height, meta.density]).toEqual([400, 320, 200]);

    const sideways = await reportFor(token, await rotatedJpeg(480, 600), canvas);
    expect(sideways.issues.map((i: any) => i.code)).toContain("exif_orientation");
    const turned = await runFixJob(token, { preflightReportId: sideways.reportId });
    expect(turned.recheck.resolved).toContain("exif_orientation");
    meta = await sharp((await fetchOwn(turned.correctedFileUrl)).body).metadata();
    expect([meta.width, meta.height, meta.orientation ?? 1]).toEqual([600, 480, 1]);
  });

  it("RGB to CMYK through the FOGRA39L press profile: a JPEG stays JPEG, a PNG becomes a TIFF", async () => {
    const { token } = await testAccount({ tokens: 1000 });
    for (const [format, mime] of [["jpeg", "image/jpeg"], ["png", "image/tiff"]] as const) {
      const report = await reportFor(token, await photoLike(600, 480, format), { ...canvas, productProfile: { requiredColorMode: "cmyk" } });
      const job = await runFixJob(token, { preflightReportId: report.reportId });
      expect(job.recheck).toMatchObject({ resolved: ["color_mode_mismatch"], unfixed: [] });
      expect(job.correctedFileType).toBe(mime);
      const out = await fetchOwn(job.correctedFileUrl);
      const meta = await sharp(out.body).metadata();
      expect([meta.space, meta.channels, meta.density, meta.width]).toEqual(["cmyk", 4, 300, 600]);
      expect(readIccProfile(meta.icc!)).toMatchObject({ colorSpace: "CMYK", description: expect.stringContaining("FOGRA39L") });
      // Same picture after the round trip back to sRGB.
      expect(meanDiff(await raw(await photoLike(600, 480, format)), await raw(out.body), { x: 0, y: 0, w: 600, h: 480 })).toBeLessThan(12);
    }
  });

  it("sharpen: edges gain contrast, flat areas stay as they were", async () => {
    const { token } = await testAccount({ tokens: 1000 });
    const source = await sharp({ create: { width: 600, height: 480, channels: 3, background: "#808080" } })
      .composite([{ input: await sharp({ create: { width: 300, height: 480, channels: 3, background: "#404040" } }).png().toBuffer(), left: 0, top: 0 }])
      .withIccProfile("srgb")
      .png()
      .toBuffer();
    const report = await reportFor(token, source, canvas);
    const job = await runFixJob(token, { preflightReportId: report.reportId, options: { fixTypes: ["sharpen_edges"] } });
    expect(job.status).toBe("completed");
    const after = await raw((await fetchOwn(job.correctedFileUrl)).body);
    const before = await raw(source);
    expect(meanDiff(before, after, { x: 20, y: 0, w: 250, h: 480 })).toBe(0);
    const at = (img: typeof after, x: number) => img.data[(240 * img.info.width + x) * 3]!;
    expect(at(after, 299)).toBeLessThan(at(before, 299));
    expect(at(after, 300)).toBeGreaterThan(at(before, 300));
    // Overshoot capped: no rim brighter/darker than y2/y3 allow.
    expect(at(before, 299) - at(after, 299)).toBeLessThanOrEqual(25);
  });
});
