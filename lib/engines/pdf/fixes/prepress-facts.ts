import { analyzePdf } from "@/lib/engines/pdf/analyze-pdf";

/** What the prepress pass will actually change in a file, read from the file before it runs. */
export type PrepressFacts = {
  /** Fonts that show text without being embedded (pdfwrite embeds them, or a substitute). */
  fontsToEmbed: string[];
  /** Image placements above the resolution pdfwrite brings images down to. */
  imagesAbove: number;
  /** Whether anything is painted in RGB, Lab or a spot colour (pdfwrite converts it to CMYK). */
  nonCmykColour: boolean;
};

/**
 * Reads the facts the prepress note may claim: a note says "fonts embedded"
 * only when fonts were missing, "brought down to 300 ppi" only when an image
 * was above it (issue 33). A file the analysis cannot read claims nothing.
 */
export async function prepressFacts(bytes: Uint8Array, opts: { imagePpi: number; maxPages: number }): Promise<PrepressFacts> {
  const a = await analyzePdf(bytes, { maxPages: opts.maxPages }).catch(() => null);
  if (!a || a.kind !== "ok") return { fontsToEmbed: [], imagesAbove: 0, nonCmykColour: false };
  const fonts = new Set<string>();
  let imagesAbove = 0;
  let nonCmykColour = false;
  for (const p of a.pages) {
    for (const f of p.fonts) if (!f.embedded) fonts.add(f.name);
    imagesAbove += p.images.filter((i) => Math.min(i.ppiX, i.ppiY) > opts.imagePpi).length;
    if (p.colors.some((c) => c.family === "rgb" || c.family === "lab" || c.family === "spot")) nonCmykColour = true;
  }
  return { fontsToEmbed: [...fonts], imagesAbove, nonCmykColour };
}
