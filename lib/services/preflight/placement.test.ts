import { describe, expect, it } from "vitest";
import { cmyk, PDFDocument, PDFName, StandardFonts } from "pdf-lib";
import { analyzePdf } from "@/lib/engines/pdf/analyze-pdf";
import { pdfIssues } from "./pdf-issues";
import type { CheckTargets } from "./issue";

const MM = 72 / 25.4;
const TARGETS: CheckTargets = { requiredDpi: 300, requiredDpiSource: "default" };

/**
 * A Letter page with 3 mm bleed: a 60 pt headline that runs off the right edge,
 * a footer 4 pt above the trim, a background that bleeds (not flagged), a logo
 * well inside (not flagged), and a half-transparent badge.
 */
export async function offPagePdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const helvetica = await doc.embedFont(StandardFonts.Helvetica);
  const b = 3 * MM;
  const page = doc.addPage([612 + 2 * b, 792 + 2 * b]);
  page.setTrimBox(b, b, 612, 792);
  page.setBleedBox(0, 0, 612 + 2 * b, 792 + 2 * b);
  // Background to the bleed edge: meant to be cut.
  page.drawRectangle({ x: 0, y: 0, width: 612 + 2 * b, height: 200, color: cmyk(0.1, 0, 0, 0) });
  page.drawText("SUMMER SALE TODAY ONLY", { x: b + 200, y: b + 650, size: 60, font: helvetica, color: cmyk(0, 0, 0, 1) });
  // Footer: its lowest point (Helvetica's descender, 0.207 em below the baseline) is 4 pt above the bottom trim.
  page.drawText("Printed by Example Co", { x: b + 200, y: b + 4 + 2.07, size: 10, font: helvetica, color: cmyk(0, 0, 0, 1) });
  page.drawRectangle({ x: b + 100, y: b + 300, width: 100, height: 100, color: cmyk(0, 1, 0, 0) });
  page.drawCircle({ x: b + 400, y: b + 400, size: 30, color: cmyk(0, 1, 1, 0), opacity: 0.5 });
  return doc.save();
}

async function issuesOf(bytes: Uint8Array, t: CheckTargets = TARGETS) {
  const a = await analyzePdf(bytes, { maxPages: 10 });
  if (a.kind !== "ok") throw new Error(a.kind);
  return { a, issues: pdfIssues(a, t).issues };
}

describe("content outside the trim or inside the safe margin", () => {
  it("finds the off-page headline and the footer 4 pt from the trim, with the objects' boxes, and nothing else", async () => {
    const { issues } = await issuesOf(await offPagePdf());
    const b = 3 * MM;
    const outside = issues.filter((i) => i.code === "content_outside_trim");
    expect(outside).toHaveLength(1);
    expect(outside[0]).toMatchObject({ severity: "error", page: 1, details: { object: "text", side: "right", text: "SUMMER SALE TODAY ONLY" } });
    expect(outside[0]!.message).toMatch(/^Text "SUMMER SALE TODAY ONLY" on page 1 runs [\d.]+ mm past the right edge, where the page is cut/);
    // The headline's own box: starts at x = 200 pt inside the trim, 60 pt type.
    expect(outside[0]!.box!.x).toBeCloseTo(b + 200, 0);
    expect(outside[0]!.box!.x + outside[0]!.box!.width).toBeGreaterThan(612 + b);
    expect(outside[0]!.box!.height).toBeGreaterThan(50);
    expect(outside[0]!.box!.height).toBeLessThan(70);

    const margin = issues.filter((i) => i.code === "content_in_safe_margin");
    expect(margin).toHaveLength(1);
    expect(margin[0]).toMatchObject({ severity: "warning", page: 1, details: { object: "text", side: "bottom", text: "Printed by Example Co", safeMarginMm: 3 } });
    expect(margin[0]!.details.distanceMm as number).toBeCloseTo(4 / MM, 1);
    expect(margin[0]!.message).toContain("1.4 mm from the bottom edge; keep it at least 3 mm inside");
    expect(margin[0]!.box!.y).toBeCloseTo(b + 4, 0);
  });

  it("boxes transparency around the transparent object, not the page", async () => {
    const { issues } = await issuesOf(await offPagePdf());
    const t = issues.find((i) => i.code === "transparency")!;
    expect(t.message).toBe("Page 1 has a transparent (see-through) shape; printers that need flattened files may print it differently (colours or edges can change).");
    // The circle: radius 30 around (400, 400) from the trim corner.
    expect(t.box!.width).toBeCloseTo(60, 0);
    expect(t.box!.height).toBeCloseTo(60, 0);
    expect(t.box!.x).toBeCloseTo(3 * MM + 370, 0);
    expect(t.message).not.toMatch(/ExtGState|GS\d|opacity 0\.5/);
    expect(JSON.stringify(t.details)).toContain("fill opacity 0.5");
  });

  it("boxes a font that is not embedded around the text set in it", async () => {
    const { issues } = await issuesOf(await offPagePdf());
    const f = issues.find((i) => i.code === "font_not_embedded")!;
    expect(f.box).toBeDefined();
    const runs = f.details.boxes as { page: number; text?: string }[];
    expect(runs.map((r) => r.text).sort()).toEqual(["Printed by Example Co", "SUMMER SALE TODAY ONLY"]);
    expect(f.message).not.toContain("embedded");
  });

  it("measures text laid out with Tm, TJ kerning, TL/T* and a composite font's widths", async () => {
    const doc = await PDFDocument.create();
    const page = doc.addPage([200, 200]);
    const font = doc.context.register(doc.context.obj({ Type: "Font", Subtype: "Type1", BaseFont: "Courier", FirstChar: 65, LastChar: 66, Widths: [600, 600] }));
    page.node.set(PDFName.of("Resources"), doc.context.obj({ Font: { F1: font } }));
    // "AB" at 10 pt from x = 150 is 12 pt wide; the TJ's -1000 adds 10 pt; T* moves down 12 pt.
    page.node.addContentStream(doc.context.register(doc.context.flateStream("BT /F1 10 Tf 12 TL 1 0 0 1 150 100 Tm [(A) -1000 (B)] TJ T* (AB) Tj ET")));
    const { a } = await issuesOf(await doc.save());
    const texts = a.pages[0]!.objects.filter((o) => o.kind === "text");
    expect(texts).toHaveLength(2);
    expect(texts[0]!.box.x).toBeCloseTo(150, 5);
    expect(texts[0]!.box.width).toBeCloseTo(22, 5);
    expect(texts[1]!.box.y).toBeLessThan(texts[0]!.box.y - 11);
    expect(texts[1]!.box.width).toBeCloseTo(12, 5);
  });
});
