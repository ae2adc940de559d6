import { describe, expect, it } from "vitest";
import { cmyk, PDFDocument, StandardFonts } from "pdf-lib";
import { forEachRenderedPage, pdfText } from "@/test/support/pdf-render";
import { addPdfBleed } from "./add-pdf-bleed";
import { withoutText } from "./strip-text";

// The bleed is read back with pdfjs (an engine independent of pdf-lib): pixels and text.

const MM = 72 / 25.4;

describe("withoutText", () => {
  it("drops the text-showing operators and their operands, keeps everything else", () => {
    const src = Buffer.from("q 1 0 0 rg 0 0 10 10 re f BT /F1 12 Tf 5 5 Td (Hello) Tj [(W) 120 (orld)] TJ (x) ' 1 2 (y) \" ET 0 g Q");
    const out = Buffer.from(withoutText(src)).toString("latin1").replace(/\s+/g, " ").trim();
    expect(out).toBe("q 1 0 0 rg 0 0 10 10 re f BT /F1 12 Tf 5 5 Td ET 0 g Q");
  });

  it("a stream it cannot read becomes empty (no text can leak)", () => {
    expect(withoutText(Buffer.from(`BT ${"1 ".repeat(10_001)}(x) Tj ET`))).toHaveLength(0);
  });
});

describe("addPdfBleed", () => {
  it("stretches what touches the trim across the bleed; text near (or at) the edge is not copied there", async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const page = doc.addPage([288, 216]); // 4 x 3 in
    page.drawRectangle({ x: 0, y: 0, width: 288, height: 216, color: cmyk(0, 0, 0.2, 0) }); // pale background to every edge
    page.drawRectangle({ x: 0, y: 80, width: 60, height: 40, color: cmyk(1, 0.6, 0, 0.2) }); // dark bar touching the left edge
    page.drawText("EDGE", { x: 2, y: 160, size: 30, font, color: cmyk(0, 0, 0, 1) }); // 0.7 mm from the left edge
    page.drawText("CUT", { x: 240, y: 20, size: 30, font, color: cmyk(0, 0, 0, 1) }); // runs past the right edge
    const out = await addPdfBleed(await doc.save(), { bleedMm: 3 });
    const fixed = await PDFDocument.load(out.bytes);
    const b = 3 * MM;
    expect(fixed.getPage(0).getTrimBox()).toMatchObject({ x: expect.closeTo(b, 3), width: 288, height: 216 });
    // The text is in the file once each (no copy hidden in the bleed tiles).
    const text = await pdfText(out.bytes);
    expect(text.match(/EDGE/g)).toHaveLength(1);
    expect(text.match(/CUT/g)).toHaveLength(1);
    const dpi = 72;
    const strip = Math.floor((3 / 25.4) * dpi) - 1; // 7 px of bleed
    await forEachRenderedPage(out.bytes, dpi, (p) => {
      const row = (yPt: number) => Math.round(p.height - (b + yPt)); // page y (points above the trim's bottom) to a pixel row
      const left = (yPt: number) => p.crop(0, row(yPt), strip, 1).data;
      // Beside the bar: its dark colour continues; beside "EDGE": the pale background, no glyph.
      expect(Math.max(...left(100).filter((_, i) => i % 4 === 0))).toBeLessThan(120);
      const besideText = left(170).filter((_, i) => i % 4 !== 3);
      expect(Math.min(...besideText)).toBeGreaterThan(190);
      // Right bleed beside "CUT": the glyphs crossing the edge are not stretched into streaks.
      const right = p.crop(p.width - strip, row(30), strip, 1).data.filter((_, i) => i % 4 !== 3);
      expect(Math.min(...right)).toBeGreaterThan(190);
    });
  });
});
