import http from "node:http";
import sharp from "sharp";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as checks from "@/app/v1/services/preflight/checks/route";
import { resetConfig } from "@/lib/foundation/config";
import { getDb } from "@/lib/foundation/db/client";
import { getBalance } from "@/lib/domain/wallet/get-balance";
import { storage } from "@/lib/domain/storage";
import { usedChecks } from "@/lib/services/preflight/quota";
import { deriveFixes } from "@/lib/services/preflight/fix-types";
import { cleanRgb } from "../fixtures/preflight/raster-fixtures";
import { colorPdf, transparencyPdf, missingBleedPdf } from "../fixtures/preflight/pdf-fixtures";
import { checkFile, createCheck, deleteReport, getReport, listReports, uploadBytes } from "../fixtures/preflight/api";
import { call, testAccount } from "../http";
import { fieldErrorList } from "@/lib/client/field-errors";

/** A real HTTP server on 127.0.0.1 serving a JPEG, a WebP and a 404, reached through the safe fetcher. */
let server: http.Server;
let base = "";
beforeAll(async () => {
  const jpeg = await cleanRgb(600, 480, "jpeg");
  const webp = Buffer.from("52494646240000005745425056503820180000003001009d012a0100010002003425a400037000fefb94000000", "hex");
  server = http.createServer((req, res) => {
    if (req.url === "/photo.jpg") res.writeHead(200, { "content-type": "image/jpeg" }).end(jpeg);
    else if (req.url === "/photo.webp") res.writeHead(200, { "content-type": "image/webp" }).end(webp);
    else res.writeHead(404).end("missing");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.env.FETCH_ALLOW_HOSTS = "127.0.0.1";
  resetConfig();
});
afterAll(async () => {
  delete process.env.FETCH_ALLOW_HOSTS;
  resetConfig();
  await new Promise((resolve) => server.close(resolve));
});

describe("POST /v1/services/preflight/checks", () => {
  it("returns 201 with the report at data.reportId, keeps the file for the viewer, and charges no tokens", async () => {
    const { token, account } = await testAccount({ tokens: 7 });
    const res = await checkFile(token, await colorPdf(), { productProfile: { requiredColorMode: "cmyk", requiredDpi: 300 }, productType: "poster" }, "order-1042");
    expect(res.status).toBe(201);
    const data = res.json.data;
    expect(data).toMatchObject({
      reportId: expect.stringMatching(/^rpt_/),
      designId: "order-1042",
      status: "fail",
      fileType: "pdf",
      summary: { errors: 3, warnings: 1, infos: 0 },
      file: { pageCount: 4, pages: expect.arrayContaining([expect.objectContaining({ page: 1, trimBox: [0, 0, 576, 720] })]) },
      checkedAgainst: { requiredDpi: 300, requiredDpiSource: "productProfile", requiredColorMode: "cmyk", productType: "poster" },
    });
    expect(data.issues.every((i: { fixTypes: unknown }) => Array.isArray(i.fixTypes))).toBe(true);
    // PDFs are rendered by the browser itself; only rasters get a preview.
    expect(data.previewUrl).toBeNull();
    // The stored copy is served through its signed URL.
    const key = new URL(data.fileUrl).pathname.replace(/^\/files\//, "");
    expect((await storage().get(key))?.contentType).toBe("application/pdf");
    expect(await getBalance(await getDb(), account.id)).toBe(7);
  });

  it("fetches a public URL through the safe fetcher", async () => {
    const { token } = await testAccount();
    const res = await createCheck(token, { designId: "web", fileUrl: `${base}/photo.jpg`, canvasWidthInches: 2, canvasHeightInches: 1.6 });
    expect(res.status).toBe(201);
    expect(res.json.data).toMatchObject({ fileType: "jpeg", status: "pass", issues: [] });
  });

  it("refuses a private address at request time with 400 URL_NOT_ALLOWED, without counting a check", async () => {
    const { token, account } = await testAccount();
    for (const fileUrl of ["http://10.1.2.3/file.pdf", "http://169.254.169.254/latest/meta-data/", "http://[::1]/a.pdf", "http://localhost/a.pdf"]) {
      const res = await createCheck(token, { designId: "x", fileUrl });
      expect(res.status, fileUrl).toBe(400);
      expect(res.json).toMatchObject({ error: "URL_NOT_ALLOWED", details: { field: "fileUrl" } });
    }
    expect(await usedChecks(await getDb(), account.id)).toBe(0);
  });

  it("answers an unreachable source with 400 and a file that is not JPEG/PNG/TIFF/PDF with 415, giving the check back", async () => {
    const { token, account } = await testAccount();
    const missing = await createCheck(token, { designId: "x", fileUrl: `${base}/nope.pdf` });
    expect(missing.status).toBe(400);
    expect(missing.json).toMatchObject({ error: "SOURCE_UNREACHABLE", details: { field: "fileUrl", upstream_status: 404 } });
    const webp = await createCheck(token, { designId: "x", fileUrl: `${base}/photo.webp` });
    expect(webp.status).toBe(415);
    expect(webp.json).toMatchObject({ error: "UNSUPPORTED_FILE_TYPE", details: { field: "fileUrl", detected: "image/webp" } });
    expect(await usedChecks(await getDb(), account.id)).toBe(0);
    expect((await listReports(token)).json.data).toHaveLength(0);
  });

  it.each([
    [{ designId: "" }, "designId"],
    [{ designId: "x".repeat(201) }, "designId"],
    [{ designId: undefined }, "designId"],
    [{ fileUrl: "ftp://example.com/a.pdf" }, "fileUrl"],
    [{ fileUrl: "not a url" }, "fileUrl"],
    [{ fileType: "gif" }, "fileType"],
    [{ productProfile: { requiredDpi: -300 } }, "productProfile.requiredDpi"],
    [{ productProfile: { requiredColorMode: "pantone" } }, "productProfile.requiredColorMode"],
    [{ productProfile: { bleedMm: -1 } }, "productProfile.bleedMm"],
    [{ productProfile: { bleed: 3 } }, "productProfile.bleed"],
    [{ canvasWidthInches: 10 }, "canvasHeightInches"],
    [{ canvasWidthInches: 0, canvasHeightInches: 8 }, "canvasWidthInches"],
    [{ productType: "mug" }, "productType"],
    [{ extra: true }, "extra"],
  ])("refuses %j with a 400 naming %s", async (change, field) => {
    const { token } = await testAccount();
    const res = await createCheck(token, { designId: "d", fileUrl: "https://example.com/a.pdf", ...change });
    expect(res.status).toBe(400);
    expect(fieldErrorList(res.json).map((f) => f.field)).toContain(field);
  });

  it("needs credentials", async () => {
    expect((await call(checks, "POST", "/v1/services/preflight/checks", { body: { designId: "x", fileUrl: "https://example.com/a.pdf" } })).status).toBe(401);
    expect((await call(checks, "GET", "/v1/services/preflight/checks")).status).toBe(401);
  });
});

describe("reports: list, get, delete", () => {
  it("lists newest first in the paginated envelope, gets the full report, deletes it and its file", async () => {
    const { token } = await testAccount({ plan: "premium" });
    const jpeg = await cleanRgb(600, 480, "jpeg");
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await checkFile(token, jpeg, { canvasWidthInches: 2, canvasHeightInches: 1.6 }, `d${i}`)).json.data.reportId);

    const page1 = await listReports(token, "?limit=2");
    expect(page1.status).toBe(200);
    expect(page1.json.data.map((r: { reportId: string }) => r.reportId)).toEqual([ids[2], ids[1]]);
    expect(page1.json.data[0]).toEqual({ reportId: ids[2], designId: "d2", status: "pass", fileType: "jpeg", fileSize: jpeg.length, summary: { errors: 0, warnings: 0, infos: 0 }, createdAt: expect.any(String) });
    expect(page1.json.meta).toMatchObject({ per_page: 2, total: 3 });
    const page2 = await call(checks, "GET", new URL(page1.json.links.next).pathname + new URL(page1.json.links.next).search, { token });
    expect(page2.json.data.map((r: { reportId: string }) => r.reportId)).toEqual([ids[0]]);
    expect(page2.json.links.next).toBeNull();
    expect((await listReports(token, "?limit=101")).status).toBe(400);

    const got = await getReport(token, ids[1]!);
    expect(got.status).toBe(200);
    expect(got.json.data).toMatchObject({ reportId: ids[1], designId: "d1", issues: [], file: { widthPx: 600, heightPx: 480 } });

    const key = new URL(got.json.data.fileUrl).pathname.replace(/^\/files\//, "");
    const previewKey = new URL(got.json.data.previewUrl).pathname.replace(/^\/files\//, "");
    expect(await storage().get(key)).not.toBeNull();
    expect((await storage().get(previewKey))?.contentType).toBe("image/jpeg");
    expect((await deleteReport(token, ids[1]!)).status).toBe(204);
    expect(await storage().get(key)).toBeNull();
    expect(await storage().get(previewKey)).toBeNull();
    expect((await getReport(token, ids[1]!)).status).toBe(404);
    expect((await deleteReport(token, ids[1]!)).status).toBe(404);
    expect((await listReports(token)).json.data).toHaveLength(2);
  });

  it("answers another account's report with 404 on get and delete, and never lists it", async () => {
    const owner = await testAccount();
    const other = await testAccount();
    const { reportId } = (await checkFile(owner.token, await cleanRgb(300, 240, "jpeg"), { canvasWidthInches: 1, canvasHeightInches: 0.8 })).json.data;
    const got = await getReport(other.token, reportId);
    expect(got.status).toBe(404);
    expect(got.json.error).toBe("NOT_FOUND");
    expect((await deleteReport(other.token, reportId)).status).toBe(404);
    expect((await listReports(other.token)).json.data).toHaveLength(0);
    expect((await getReport(owner.token, reportId)).status).toBe(200);
    expect((await getReport(owner.token, "rpt_doesnotexist")).status).toBe(404);
  });

  it("gives each issue the fix types a fix job needs (raster and PDF)", async () => {
    const { token } = await testAccount({ plan: "premium" });
    const lowRes = (await checkFile(token, await cleanRgb(1000, 800, "jpeg"), { canvasWidthInches: 10, canvasHeightInches: 8, productProfile: { requiredColorMode: "cmyk", bleedMm: 3 } })).json.data;
    expect(deriveFixes(lowRes.issues).fixTypes).toEqual(["upscale_resolution_4x", "add_bleed", "sharpen_edges", "convert_color_mode"]);
    const pdf = (await checkFile(token, await transparencyPdf(), {})).json.data;
    expect(deriveFixes(pdf.issues)).toEqual({ fixTypes: ["remove_transparency"], prepressSteps: ["flatten_transparency"] });
    const bleed = (await checkFile(token, await missingBleedPdf(), { canvasWidthInches: 8, canvasHeightInches: 10, productProfile: { bleedMm: 3 } })).json.data;
    expect(deriveFixes(bleed.issues)).toEqual({ fixTypes: ["add_bleed"], prepressSteps: [] });
  });

  it("accepts an upload's URL for any account that holds it, as every service does", async () => {
    const owner = await testAccount();
    const url = await uploadBytes(owner.token, await cleanRgb(300, 240, "png"));
    const other = await testAccount();
    const res = await createCheck(other.token, { designId: "shared link", fileUrl: url, canvasWidthInches: 1, canvasHeightInches: 0.8 });
    expect(res.status).toBe(201);
    expect(res.json.data.fileType).toBe("png");
  });
});

describe("raster previews for the viewer", () => {
  it("turns a 16-bit CMYK TIFF into an upright sRGB JPEG of at most 1600 px", async () => {
    const { token } = await testAccount();
    const { cmykTiff, iccProfiles } = await import("../fixtures/preflight/raster-fixtures");
    const res = await checkFile(token, cmykTiff({ width: 2400, height: 600, bits: 16, icc: (await iccProfiles()).cmyk }), { canvasWidthInches: 8, canvasHeightInches: 2 });
    expect(res.status).toBe(201);
    const preview = await storage().get(new URL(res.json.data.previewUrl).pathname.replace(/^\/files\//, ""));
    const meta = await sharp(preview!.body).metadata();
    expect(meta).toMatchObject({ format: "jpeg", width: 1600, height: 400, space: "srgb" });
  });
});
