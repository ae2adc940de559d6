import { SAFE_MARGIN_MM } from "@/lib/services/preflight/safe-margin";

export type Rect = { x: number; y: number; width: number; height: number };

/** The safe area sits as far inside the trim as the check measures it (3 mm). */
const SAFE_MARGIN_IN = SAFE_MARGIN_MM / 25.4;

/**
 * Where the trim, bleed and safe-area lines fall on a raster, in its pixels.
 * Mirrors the check's rule: the file fills the canvas plus bleed (or the canvas
 * alone when the report says the bleed is missing), cropped to the centre.
 */
export function rasterGuides(
  widthPx: number,
  heightPx: number,
  canvas: { widthIn: number; heightIn: number } | undefined,
  bleedMm: number,
  bleedMissing: boolean,
): { bleed?: Rect; trim: Rect; safe: Rect; pxPerIn: number } | undefined {
  if (!canvas) return undefined;
  const bleedIn = bleedMm > 0 && !bleedMissing ? bleedMm / 25.4 : 0;
  const targetW = canvas.widthIn + 2 * bleedIn;
  const targetH = canvas.heightIn + 2 * bleedIn;
  const pxPerIn = Math.min(widthPx / targetW, heightPx / targetH);
  const kept = { x: (widthPx - targetW * pxPerIn) / 2, y: (heightPx - targetH * pxPerIn) / 2, width: targetW * pxPerIn, height: targetH * pxPerIn };
  const inset = (r: Rect, d: number): Rect => ({ x: r.x + d, y: r.y + d, width: r.width - 2 * d, height: r.height - 2 * d });
  const trim = inset(kept, bleedIn * pxPerIn);
  return { bleed: bleedIn > 0 ? kept : undefined, trim, safe: inset(trim, SAFE_MARGIN_IN * pxPerIn), pxPerIn };
}
