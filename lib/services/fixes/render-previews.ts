import sharp from "sharp";
import { storage } from "@/lib/domain/storage";
import { runGhostscript } from "@/lib/engines/pdf/ghostscript/run-ghostscript";
import { MAX_PREVIEW_PAGES } from "./limits";
import { previewKey } from "./storage-keys";

const SIZE = 800;
const PAGE_FILE = /^page-\d{4}\.png$/;

const toJpeg = (raster: Buffer) =>
  sharp(raster, { limitInputPixels: false })
    .rotate()
    .resize(SIZE, SIZE, { fit: "inside", withoutEnlargement: true })
    .flatten({ background: "#ffffff" })
    .toColourspace("srgb")
    .jpeg({ quality: 82 })
    .toBuffer();

/**
 * Small sRGB JPEGs of a file for people to look at: a raster itself (one
 * picture), or each page of a PDF (its whole MediaBox, bleed included), up to
 * MAX_PREVIEW_PAGES. Issue 33: a reviewer shown page 1 alone approved a fix
 * that had changed page 2 beyond recognition.
 */
export async function previewPictures(bytes: Buffer, mime: string, signal?: AbortSignal): Promise<Buffer[]> {
  if (mime !== "application/pdf") return [await toJpeg(bytes)];
  const r = await runGhostscript(
    ["-sDEVICE=png16m", "-r72", "-dFirstPage=1", `-dLastPage=${MAX_PREVIEW_PAGES}`, "-dTextAlphaBits=4", "-dGraphicsAlphaBits=4", "-sOutputFile=/work/page-%04d.png", "/work/in.pdf"],
    { inputs: { "in.pdf": bytes }, outputs: [], collect: PAGE_FILE },
    { signal, timeoutMs: 300_000 },
  );
  const pages = Object.keys(r.outputs).sort();
  if (pages.length === 0) throw new Error("Ghostscript drew no page.");
  const pictures: Buffer[] = [];
  for (const name of pages) pictures.push(await toJpeg(r.outputs[name]!));
  return pictures;
}

type PreviewColumns = { beforePreviewKey: string | null; afterPreviewKey: string | null; beforePreviewPages: number | null; afterPreviewPages: number | null };

/**
 * Stores the before and after pictures of a job, every page. Best effort: a
 * file the previewer cannot draw still gets its fix; the job just shows no picture.
 */
export async function storePreviews(job: { id: string; accountId: string }, before: { key: string; mime: string }, after: { key: string; mime: string }, signal?: AbortSignal) {
  const keys: PreviewColumns = { beforePreviewKey: null, afterPreviewKey: null, beforePreviewPages: null, afterPreviewPages: null };
  for (const [which, file] of [["before", before], ["after", after]] as const) {
    try {
      const object = await storage().get(file.key);
      if (!object) continue;
      const pictures = await previewPictures(object.body, file.mime, signal);
      for (const [i, picture] of pictures.entries()) await storage().put(previewKey(job.accountId, job.id, which, i + 1), picture, "image/jpeg");
      keys[`${which}PreviewKey`] = previewKey(job.accountId, job.id, which);
      keys[`${which}PreviewPages`] = pictures.length;
    } catch (err) {
      if (signal?.aborted) throw signal.reason;
      console.error(`[ai-fix] no ${which} preview for job ${job.id}:`, (err as Error).message);
    }
  }
  return keys;
}
