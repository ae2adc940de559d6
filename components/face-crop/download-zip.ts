import { downloadZip as downloadFiles } from "@/lib/client/download-files";
import type { CropResult } from "./types";

/** The crop's name in the ZIP: the photo's name, the preset, .jpg; repeats get a number. */
export function zipNames(results: CropResult[]): string[] {
  const seen = new Map<string, number>();
  return results.map((r) => {
    const base = `${r.filename.replace(/\.[^.]+$/, "").replace(/[\\/:*?"<>|]+/g, "_") || "photo"}-${r.icp_type}`;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return n === 1 ? `${base}.jpg` : `${base}-${n}.jpg`;
  });
}

/** Fetches every full-resolution crop and saves them as one ZIP (stored, JPEGs do not compress). */
export function downloadZip(results: CropResult[], name: string, onProgress?: (done: number) => void): Promise<void> {
  const names = zipNames(results);
  return downloadFiles(
    results.map((r, i) => ({ url: r.output_urls.original, name: names[i]!, label: `${r.filename}: the crop` })),
    name,
    onProgress,
  );
}
