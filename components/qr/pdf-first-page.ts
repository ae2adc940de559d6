/**
 * Renders page 1 of a PDF to a PNG data URL in the browser with pdf.js, so the
 * preview is a picture of exactly what will print. pdf.js is loaded only when
 * a preview is asked for.
 */
export async function renderFirstPage(pdf: ArrayBuffer, cssWidth: number): Promise<string> {
  const pdfjs = await import("pdfjs-dist");
  pdfjs.GlobalWorkerOptions.workerSrc ||= new URL("pdfjs-dist/build/pdf.worker.min.mjs", import.meta.url).toString();
  const doc = await pdfjs.getDocument({ data: new Uint8Array(pdf) }).promise;
  try {
    const page = await doc.getPage(1);
    const base = page.getViewport({ scale: 1 });
    // Twice the displayed size, so text and QR modules stay crisp on high-density screens.
    const viewport = page.getViewport({ scale: (2 * cssWidth) / base.width });
    const canvas = document.createElement("canvas");
    canvas.width = Math.round(viewport.width);
    canvas.height = Math.round(viewport.height);
    await page.render({ canvas, viewport, background: "#ffffff" }).promise;
    return canvas.toDataURL("image/png");
  } finally {
    await doc.destroy();
  }
}
