import type { Db } from "@/lib/db/types";
import { checkSourceUrl } from "@/lib/sources/fetch-source";
import { acceptTask } from "./accept-task";
import { runSync } from "./run-sync";
import type { FaceCropInput } from "./schemas";

/** The last path segment of a URL, as the result's filename. */
export function filenameFromUrl(url: string, position: number): string {
  try {
    const last = decodeURIComponent(new URL(url).pathname.split("/").filter(Boolean).at(-1) ?? "");
    if (last) return last.slice(0, 255);
  } catch {
    /* fall through */
  }
  return `photo-${position + 1}`;
}

/**
 * POST /v1/services/studio/face-crop: every URL is checked first (a refused URL
 * is a 400 naming its index, nothing charged), then the batch is debited and
 * cropped at once. Files that fail after acceptance are refunded.
 */
export async function cropFromUrls(db: Db, accountId: string, input: FaceCropInput) {
  const urls = input.image_url !== undefined ? [input.image_url] : input.image_urls!;
  for (const [i, url] of urls.entries()) await checkSourceUrl(url, input.image_url !== undefined ? "image_url" : `image_urls[${i}]`);
  const task = await acceptTask(db, accountId, {
    icpType: input.icp_type,
    enhance: input.enhance,
    mode: "sync",
    files: urls.map((url, i) => ({ kind: "url", filename: filenameFromUrl(url, i), url })),
  });
  return runSync(db, task);
}
