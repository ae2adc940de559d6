import { and, eq } from "drizzle-orm";
import sharp from "sharp";
import { uprightSize } from "@/lib/engines/imaging/image-input";
import type { Db } from "@/lib/foundation/db/types";
import { uploads } from "@/lib/foundation/db/schema";
import { storage } from "@/lib/domain/storage";

/**
 * What we know of a caller's source URL before its work is accepted. For one of the
 * account's own uploads: the name the file was uploaded under and the picture's size
 * (its header, read from storage), so a photo over a limit is refused before it is
 * charged. For any other URL: its last path segment as the name, and no size.
 */
export async function describeSource(db: Db, accountId: string, url: string): Promise<{ name: string | null; pixels: { width: number; height: number } | null }> {
  const key = storage().keyFromOwnUrl(url);
  if (!key) return { name: nameFromUrl(url), pixels: null };
  const [row] = await db
    .select({ originalName: uploads.originalName })
    .from(uploads)
    .where(and(eq(uploads.accountId, accountId), eq(uploads.storageKey, key)));
  const stored = await storage().get(key);
  const meta = stored ? await sharp(stored.body, { limitInputPixels: false }).metadata().catch(() => null) : null;
  // Upright, as the engine measures it (lib/engines/imaging/image-input.ts), so the refusal names the size people see.
  const pixels = meta?.width && meta.height ? uprightSize({ width: meta.width, height: meta.height, orientation: meta.orientation }) : null;
  return { name: row?.originalName ?? nameFromUrl(url), pixels };
}

function nameFromUrl(url: string): string | null {
  try {
    const last = decodeURIComponent(new URL(url).pathname.split("/").pop() ?? "");
    const clean = last.replace(/[\p{Cc}]/gu, "").trim().slice(0, 255);
    return clean || null;
  } catch {
    return null;
  }
}
