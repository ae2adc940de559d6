import { zip } from "fflate";
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

/**
 * The app's own file URLs are fetched from the page's origin: the server signs them
 * with the origin it sees, which behind a proxy or a bound address (127.0.0.1 vs
 * localhost) can differ from the page's, and fetch() (unlike <img>) needs the same origin.
 */
function sameOrigin(url: string): string {
  const u = new URL(url, window.location.href);
  return u.pathname.startsWith("/files/") ? `${u.pathname}${u.search}` : u.href;
}

/** Fetches every full-resolution crop and saves them as one ZIP (stored, JPEGs do not compress). */
export async function downloadZip(results: CropResult[], name: string, onProgress?: (done: number) => void): Promise<void> {
  const names = zipNames(results);
  const files: Record<string, Uint8Array> = {};
  let done = 0;
  for (const [i, r] of results.entries()) {
    const res = await fetch(sameOrigin(r.output_urls.original), { credentials: "same-origin" });
    if (!res.ok) throw new Error(`${r.filename}: the crop could not be downloaded (${res.status}).`);
    files[names[i]!] = new Uint8Array(await res.arrayBuffer());
    onProgress?.(++done);
  }
  const bytes = await new Promise<Uint8Array>((resolve, reject) => zip(files, { level: 0 }, (err, data) => (err ? reject(err) : resolve(data))));
  const url = URL.createObjectURL(new Blob([bytes as BlobPart], { type: "application/zip" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
