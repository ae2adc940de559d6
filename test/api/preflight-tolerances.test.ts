import { describe, expect, it } from "vitest";
import sharp from "sharp";
import { PDFDocument } from "pdf-lib";
import { testAccount } from "../http";
import { checkFile } from "../fixtures/preflight/api";
import { addContent, addPrintPage, obj, setResource } from "../fixtures/preflight/pdf-fixtures";
import { meetsResolution, shownPpi } from "@/lib/services/preflight/tolerances";

// Preflight decides with documented tolerances (half a percent of resolution, one
// 8-bit step of opacity) and shows a failing number rounded the way it decided:
// a file that meets the requirement on paper never fails by a rounding error.

const photo = (w: number, h: number) => sharp({ create: { width: w, height: h, channels: 3, background: { r: 120, g: 140, b: 90 } } }).jpeg().toBuffer();
const codes = (res: { json: { data: { issues: Array<{ code: string }> } } }) => res.json.data.issues.map((i) => i.code);

/** One 4 x 4 in page that fills a square with an ExtGState of this fill opacity. */
async function opacityPdf(ca: number): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = addPrintPage(doc, 4, 4);
  setResource(doc, page, "ExtGState", "GSa", obj(doc, { Type: "ExtGState", ca }));
  addContent(doc, page, "q /GSa gs 0 0 0 1 k 72 72 72 72 re f Q");
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}

describe("preflight tolerances", () => {
  it("the rule: within half a percent meets the resolution; a failing value never reads as the required one", () => {
    expect(meetsResolution(299.99, 300)).toBe(true);
    expect(meetsResolution(298.5, 300)).toBe(true);
    expect(meetsResolution(298.4, 300)).toBe(false);
    expect(shownPpi(298.4, 300)).toBe(298);
    expect(shownPpi(71.9, 72)).toBe(71);
  });

  it("an image at 299.99 ppi meets 300; one at 298 ppi is reported as 298 (not rounded towards a pass)", async () => {
    const { token } = await testAccount({ tokens: 0 });
    const profile = { productProfile: { requiredDpi: 300 } };
    const near = await checkFile(token, await photo(600, 480), { canvasWidthInches: 600 / 299.99, canvasHeightInches: 480 / 299.99, ...profile });
    expect(near.status, near.text).toBe(201);
    expect(codes(near)).not.toContain("low_resolution");
    const low = await checkFile(token, await photo(596, 477), { canvasWidthInches: 2, canvasHeightInches: 1.6, ...profile });
    const issue = low.json.data.issues.find((i: { code: string }) => i.code === "low_resolution");
    expect(issue?.message).toMatch(/^The image is 298 ppi .*; 300 ppi required\.$/);
  });

  it("an opacity of 0.9999999 is opaque; 0.99 is transparency, shown as 0.99", async () => {
    const { token } = await testAccount({ tokens: 0 });
    const opaque = await checkFile(token, await opacityPdf(0.9999999), { canvasWidthInches: 4, canvasHeightInches: 4 });
    expect(opaque.status, opaque.text).toBe(201);
    expect(codes(opaque)).not.toContain("transparency");
    const see = await checkFile(token, await opacityPdf(0.99), { canvasWidthInches: 4, canvasHeightInches: 4 });
    const issue = see.json.data.issues.find((i: { code: string }) => i.code === "transparency");
    expect(JSON.stringify(issue)).toContain("fill opacity 0.99");
  });
});
