// Renders and reads PDFs with pdfjs-dist (Mozilla's PDF.js), an engine independent
// of pdf-lib, which writes them. Pages are painted by pdfjs's own Node canvas,
// @napi-rs/canvas (an optional dependency of pdfjs-dist, installed with it), so
// this needs npm packages only.
import * as pdfjs from "pdfjs-dist/legacy/build/pdf.mjs";
import type { PDFDocumentProxy } from "pdfjs-dist/legacy/build/pdf.mjs";

/** RGBA pixels, row by row (the shape of a canvas ImageData). */
export type Pixels = { data: Uint8ClampedArray; width: number; height: number };

/** One page painted on a white background; `crop` reads a rectangle of it, in pixels, clamped to the page. */
export type RenderedPage = {
  pageNumber: number;
  width: number;
  height: number;
  crop(left: number, top: number, width: number, height: number): Pixels;
};

type CanvasAndContext = {
  canvas: unknown;
  context: { getImageData(x: number, y: number, w: number, h: number): Pixels };
};

async function open(pdf: Uint8Array): Promise<PDFDocumentProxy> {
  // pdfjs takes ownership of (detaches) the bytes it is given: hand it a copy.
  return pdfjs.getDocument({ data: new Uint8Array(pdf), isEvalSupported: false, useSystemFonts: false, verbosity: pdfjs.VerbosityLevel.ERRORS }).promise;
}

/**
 * Renders every page at `dpi` and calls `visit` with it, one page at a time
 * (a 223-page roster never sits in memory as pixels all at once).
 * Returns the number of pages.
 */
export async function forEachRenderedPage(pdf: Uint8Array, dpi: number, visit: (page: RenderedPage) => Promise<void> | void): Promise<number> {
  const doc = await open(pdf);
  try {
    const factory = doc.canvasFactory as { create(width: number, height: number): CanvasAndContext; destroy(c: CanvasAndContext): void };
    for (let pageNumber = 1; pageNumber <= doc.numPages; pageNumber++) {
      const page = await doc.getPage(pageNumber);
      const viewport = page.getViewport({ scale: dpi / 72 });
      const width = Math.ceil(viewport.width);
      const height = Math.ceil(viewport.height);
      let surface: CanvasAndContext;
      try {
        surface = factory.create(width, height);
      } catch (e) {
        throw new Error(`pdfjs-dist could not create a canvas (its optional dependency @napi-rs/canvas must be installed): ${(e as Error).message}`);
      }
      try {
        await page.render({ canvas: surface.canvas as HTMLCanvasElement, canvasContext: surface.context as unknown as CanvasRenderingContext2D, viewport, background: "#ffffff" }).promise;
        await visit({
          pageNumber,
          width,
          height,
          crop(left, top, w, h) {
            const x = Math.max(0, Math.min(width, left));
            const y = Math.max(0, Math.min(height, top));
            return surface.context.getImageData(x, y, Math.max(1, Math.min(width - x, w)), Math.max(1, Math.min(height - y, h)));
          },
        });
      } finally {
        factory.destroy(surface);
        page.cleanup();
      }
    }
    return doc.numPages;
  } finally {
    await doc.destroy();
  }
}

/**
 * The text of every page as pdfjs extracts it (through each font's ToUnicode
 * map), pages and lines separated by newlines: what a reader copying the
 * text, or a search, gets.
 */
export async function pdfText(pdf: Uint8Array): Promise<string> {
  const doc = await open(pdf);
  try {
    const pages: string[] = [];
    for (let pageNumber = 1; pageNumber <= doc.numPages; pageNumber++) {
      const page = await doc.getPage(pageNumber);
      const content = await page.getTextContent();
      pages.push(content.items.map((item) => ("str" in item ? item.str + (item.hasEOL ? "\n" : "") : "")).join(""));
      page.cleanup();
    }
    return pages.join("\n");
  } finally {
    await doc.destroy();
  }
}
