import type { Db } from "@/lib/foundation/db/types";
import { checkSourceUrl } from "@/lib/domain/sources/fetch-source";
import { acceptTask } from "./accept-task";
import { runSync } from "./run-sync";
import { queuedBody } from "./public-task";
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
 * cropped at once (200). With `enhance` (super-resolution takes seconds a crop)
 * it becomes a task instead (202), like a large upload. Files that fail after
 * acceptance are refunded.
 */
export async function cropFromUrls(db: Db, accountId: string, input: FaceCropInput): Promise<{ status: 200 | 202; body: unknown }> {
  const urls = input.image_url !== undefined ? [input.image_url] : input.image_urls!;
  for (const [i, url] of urls.entries()) await checkSourceUrl(url, input.image_url !== undefined ? "image_url" : `image_urls[${i}]`);
  const task = await acceptTask(db, accountId, {
    icpType: input.icp_type,
    enhance: input.enhance,
    mode: input.enhance ? "async" : "sync",
    files: urls.map((url, i) => ({ kind: "url", filename: filenameFromUrl(url, i), url })),
  });
  if (!input.enhance) return { status: 200, body: await runSync(db, task) };
  return { status: 202, body: queuedBody(task) };
}
