import { describe, expect, it } from "vitest";
import { degrees, PDFDocument } from "pdf-lib";
import sharp from "sharp";
import { analyzePdf } from "./analyze-pdf";

async function jpeg(w: number, h: number) {
  return sharp({ create: { width: w, height: h, channels: 3, background: "#c33" } }).jpeg().toBuffer();
}

describe("analyzePdf image placement", () => {
  it("measures each axis of a rotated image along its own direction", async () => {
    const doc = await PDFDocument.create();
    const img = await doc.embedJpg(await jpeg(600, 300));
    // 600 px over 2 in and 300 px over 1.5 in, turned 90°: 300 and 200 ppi.
    doc.addPage([612, 792]).drawImage(img, { x: 300, y: 100, width: 144, height: 108, rotate: degrees(90) });
    const a = await analyzePdf(await doc.save(), { maxPages: 10 });
    if (a.kind !== "ok") throw new Error(a.kind);
    const [placed] = a.pages[0]!.images;
    expect(placed!.ppiX).toBeCloseTo(300, 5);
    expect(placed!.ppiY).toBeCloseTo(200, 5);
    // Turned 90° anticlockwise about its origin: it occupies x 192..300, y 100..244.
    expect(placed!.box).toMatchObject({ x: 192, y: 100, width: 108, height: 144 });
  });

  it("places inline images and keeps the graphics state across q/Q", async () => {
    const doc = await PDFDocument.create();
    const page = doc.addPage([612, 792]);
    const data = "00".repeat(10 * 10 * 3);
    const content = `q 2 0 0 2 0 0 cm q 36 0 0 36 10 10 cm BI /W 10 /H 10 /CS /RGB /BPC 8 /F /AHx ID ${data}> EI Q Q q 72 0 0 72 0 0 cm BI /W 30 /H 30 /CS /G /BPC 8 /F /AHx ID ${"00".repeat(900)}> EI Q`;
    page.node.addContentStream(doc.context.register(doc.context.flateStream(content)));
    const a = await analyzePdf(await doc.save(), { maxPages: 10 });
    if (a.kind !== "ok") throw new Error(a.kind);
    const images = a.pages[0]!.images;
    expect(images.map((i) => i.name)).toEqual(["inline image", "inline image"]);
    // 10 px over 72 pt (36 scaled by 2) = 10 ppi; then 30 px over 72 pt = 30 ppi (the scale was restored by Q).
    expect(images[0]!.ppiX).toBeCloseTo(10, 5);
    expect(images[1]!.ppiX).toBeCloseTo(30, 5);
    expect(a.pages[0]!.colors.map((c) => c.label).sort()).toEqual(["DeviceGray", "DeviceRGB"]);
  });

  it("reports page boxes with inherited MediaBox and rotation", async () => {
    const doc = await PDFDocument.create();
    const page = doc.addPage([500, 700]);
    page.setRotation(degrees(90));
    page.setTrimBox(10, 10, 480, 680);
    const a = await analyzePdf(await doc.save(), { maxPages: 10 });
    if (a.kind !== "ok") throw new Error(a.kind);
    expect(a.pages[0]!.boxes).toMatchObject({ mediaBox: [0, 0, 500, 700], trimBox: [10, 10, 490, 690], hasTrimBox: true, hasBleedBox: false, rotate: 90 });
  });
});
