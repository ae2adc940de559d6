// pdf.js is loaded only in the browser, on first use, with its worker and data
// files served from the installed package (app/(studio)/preflight/pdfjs).
import { sameOriginFileUrl } from "./same-origin-url";

const BASE = "/preflight/pdfjs/";

type PdfJs = typeof import("pdfjs-dist");
let loading: Promise<PdfJs> | undefined;

export function loadPdfJs(): Promise<PdfJs> {
  loading ??= import("pdfjs-dist").then((pdfjs) => {
    pdfjs.GlobalWorkerOptions.workerSrc = `${BASE}build/pdf.worker.min.mjs`;
    return pdfjs;
  });
  return loading;
}

export async function openPdf(url: string) {
  const pdfjs = await loadPdfJs();
  return pdfjs.getDocument({
    url: sameOriginFileUrl(url),
    standardFontDataUrl: `${BASE}standard_fonts/`,
    cMapUrl: `${BASE}cmaps/`,
    cMapPacked: true,
    iccUrl: `${BASE}iccs/`,
    wasmUrl: `${BASE}wasm/`,
  }).promise;
}
