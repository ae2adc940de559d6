import { PDFDocument } from "pdf-lib";
import { GhostscriptError, runGhostscript, type GhostscriptEngine } from "@/lib/engines/pdf/ghostscript/run-ghostscript";
import { pureBlackToGray } from "./pure-black";

/** Why a prepress pass failed; `retriable` when the engine itself may have been the problem. */
export class PrepressError extends Error {
  constructor(
    message: string,
    readonly retriable: boolean,
  ) {
    super(message);
    this.name = "PrepressError";
  }
}

/**
 * pdfwrite settings measured in DESIGN.md: every font embedded (subset),
 * DeviceCMYK only (spot inks included), colour images above 300 ppi brought
 * down to 300 ppi (the threshold 1.0: the default 1.5 leaves a 400 ppi image alone).
 */
export const PREPRESS_FLAGS = [
  "-sDEVICE=pdfwrite",
  "-dPDFSETTINGS=/prepress",
  "-dEmbedAllFonts=true",
  "-dSubsetFonts=true",
  "-sColorConversionStrategy=CMYK",
  "-sProcessColorModel=DeviceCMYK",
  // Spot inks (Separation, DeviceN) become process CMYK too: the default keeps them.
  "-dPreserveSeparation=false",
  "-dPreserveDeviceN=false",
  "-dDownsampleColorImages=true",
  "-dColorImageResolution=300",
  "-dColorImageDownsampleThreshold=1.0",
  "-dDownsampleGrayImages=true",
  "-dGrayImageResolution=300",
  "-dGrayImageDownsampleThreshold=1.0",
] as const;

/**
 * Flattening: PDF 1.3 has no transparency, so pdfwrite paints such a page as
 * one image at this resolution. The image limits are raised to match: with
 * PREPRESS_FLAGS' 300 the 600 ppi page came out at 300 ppi (issue 33).
 */
export const FLATTEN_PPI = 600;
export const FLATTEN_FLAGS = ["-dCompatibilityLevel=1.3", `-r${FLATTEN_PPI}`, `-dColorImageResolution=${FLATTEN_PPI}`, `-dGrayImageResolution=${FLATTEN_PPI}`] as const;

export type PrepressResult = { bytes: Uint8Array; engine: GhostscriptEngine; flattenedPages: number[]; ms: number };

/**
 * The prepress pass. The whole document goes through pdfwrite once (pages stay
 * vector); pages that really use transparency go through a second pass at PDF
 * 1.3 (each becomes one 600 ppi image) and replace their vector versions.
 */
export async function runPdfPrepress(input: Uint8Array, opts: { flattenPages: number[]; engine?: GhostscriptEngine; signal?: AbortSignal; timeoutMs?: number }): Promise<PrepressResult> {
  const started = performance.now();
  const pageCount = await countPages(input);
  if (pageCount < 1) throw new PrepressError("The PDF could not be read for its prepress conversion; export it again and check it once more.", false);
  const prepared = await pureBlackToGray(input).catch(() => input);
  const run = (extra: readonly string[]) =>
    runGhostscript([...PREPRESS_FLAGS, ...extra, "-sOutputFile=/work/out.pdf", "/work/in.pdf"], { inputs: { "in.pdf": prepared }, outputs: ["out.pdf"] }, { engine: opts.engine, signal: opts.signal, timeoutMs: opts.timeoutMs }).then(
      (r) => ({ bytes: r.outputs["out.pdf"]!, engine: r.engine }),
      (err: unknown) => {
        throw toPrepressError(err);
      },
    );
  const whole = await run([]);
  // Ghostscript repairs what it can and may drop what it cannot: a page lost is a failure, not a fix.
  const outPages = await countPages(whole.bytes);
  if (outPages !== pageCount) throw new PrepressError(`Ghostscript could not convert this PDF for print (${pageCount} pages in, ${Math.max(outPages, 0)} out); export it again and check it once more.`, false);
  const pages = opts.flattenPages;
  if (pages.length === 0) return { bytes: whole.bytes, engine: whole.engine, flattenedPages: [], ms: performance.now() - started };
  const flat = await run([...FLATTEN_FLAGS, `-sPageList=${pages.join(",")}`]);
  const doc = await PDFDocument.load(whole.bytes, { updateMetadata: false });
  const flatDoc = await PDFDocument.load(flat.bytes, { updateMetadata: false });
  const copied = await doc.copyPages(flatDoc, flatDoc.getPageIndices());
  pages.forEach((pageNumber, i) => {
    const at = pageNumber - 1;
    if (at >= doc.getPageCount() || !copied[i]) return;
    doc.removePage(at);
    doc.insertPage(at, copied[i]);
  });
  return { bytes: await doc.save(), engine: whole.engine, flattenedPages: pages, ms: performance.now() - started };
}

/** Pages pdf-lib finds, or -1 for a file it cannot read (pdf-lib may load garbage and fail only when asked). */
async function countPages(bytes: Uint8Array): Promise<number> {
  try {
    return (await PDFDocument.load(bytes, { updateMetadata: false })).getPageCount();
  } catch {
    return -1;
  }
}

function toPrepressError(err: unknown): unknown {
  if (!(err instanceof GhostscriptError)) return err;
  if (err.kind === "aborted") return err;
  if (err.stderr) console.error(`[ai-fix] ghostscript ${err.kind}: ${err.stderr.slice(0, 2000)}`);
  if (err.kind === "timeout") return new PrepressError("The PDF took too long to convert for print; simplify it or split it into smaller files.", false);
  if (err.kind === "unavailable") return new PrepressError("The PDF prepress engine is not available right now.", true);
  return new PrepressError("Ghostscript could not convert this PDF for print (it may be damaged or use features it cannot rewrite); export it again and check it once more.", false);
}
