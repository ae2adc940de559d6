import sharp from "sharp";
import { storage } from "@/lib/domain/storage";
import { runGhostscript } from "@/lib/engines/pdf/ghostscript/run-ghostscript";
import { previewKey } from "./storage-keys";

const SIZE = 800;

/** A small sRGB JPEG of a file for people to look at: a raster itself, or a PDF's first page (its whole MediaBox, bleed included). */
export async function previewPicture(bytes: Buffer, mime: string, signal?: AbortSignal): Promise<Buffer> {
  let raster = bytes;
  if (mime === "application/pdf") {
    const r = await runGhostscript(["-sDEVICE=png16m", "-r72", "-dFirstPage=1", "-dLastPage=1", "-dTextAlphaBits=4", "-dGraphicsAlphaBits=4", "-sOutputFile=/work/page.png", "/work/in.pdf"], { inputs: { "in.pdf": bytes }, outputs: ["page.png"] }, { signal, timeoutMs: 120_000 });
    raster = r.outputs["page.png"]!;
  }
  return sharp(raster, { limitInputPixels: false })
    .rotate()
    .resize(SIZE, SIZE, { fit: "inside", withoutEnlargement: true })
    .flatten({ background: "#ffffff" })
    .toColourspace("srgb")
    .jpeg({ quality: 82 })
    .toBuffer();
}

/**
 * Stores the before and after pictures of a job. Best effort: a file the
 * previewer cannot draw still gets its fix; the job just shows no picture.
 */
export async function storePreviews(job: { id: string; accountId: string }, before: { key: string; mime: string }, after: { key: string; mime: string }, signal?: AbortSignal) {
  const keys: { beforePreviewKey: string | null; afterPreviewKey: string | null } = { beforePreviewKey: null, afterPreviewKey: null };
  for (const [which, file] of [["before", before], ["after", after]] as const) {
    try {
      const object = await storage().get(file.key);
      if (!object) continue;
      const key = previewKey(job.accountId, job.id, which);
      await storage().put(key, await previewPicture(object.body, file.mime, signal), "image/jpeg");
      keys[which === "before" ? "beforePreviewKey" : "afterPreviewKey"] = key;
    } catch (err) {
      if (signal?.aborted) throw signal.reason;
      console.error(`[ai-fix] no ${which} preview for job ${job.id}:`, (err as Error).message);
    }
  }
  return keys;
}
