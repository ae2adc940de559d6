import { zip } from "fflate";

/**
 * The app's own file URLs are fetched from the page's origin: the server signs them
 * with the origin it sees, which behind a proxy or a bound address can differ from
 * the page's, and fetch() (unlike <img>) needs the same origin.
 */
export function sameOriginFileUrl(url: string): string {
  const u = new URL(url, window.location.href);
  return u.pathname.startsWith("/files/") ? `${u.pathname}${u.search}` : u.href;
}

/** Names made unique inside one archive: "a.png", "a-2.png". */
export function uniqueNames(names: string[]): string[] {
  const seen = new Map<string, number>();
  return names.map((name) => {
    const n = (seen.get(name) ?? 0) + 1;
    seen.set(name, n);
    return n === 1 ? name : name.replace(/(\.[^.]+)?$/, (ext) => `-${n}${ext}`);
  });
}

function saveBlob(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Fetches every file and saves them as one ZIP (stored: images and PDFs are compressed already). */
export async function downloadZip(files: Array<{ url: string; name: string; label?: string }>, zipName: string, onProgress?: (done: number) => void): Promise<void> {
  const names = uniqueNames(files.map((f) => f.name.replace(/[\\/:*?"<>|]+/g, "_")));
  const entries: Record<string, Uint8Array> = {};
  let done = 0;
  for (const [i, f] of files.entries()) {
    const res = await fetch(sameOriginFileUrl(f.url), { credentials: "same-origin" });
    if (!res.ok) throw new Error(`${f.label ?? f.name} could not be downloaded (${res.status}).`);
    entries[names[i]!] = new Uint8Array(await res.arrayBuffer());
    onProgress?.(++done);
  }
  const bytes = await new Promise<Uint8Array>((resolve, reject) => zip(entries, { level: 0 }, (err, data) => (err ? reject(err) : resolve(data))));
  saveBlob(new Blob([bytes as BlobPart], { type: "application/zip" }), zipName);
}
