/** The contract's AI fix types (section 2.5). Issues list the ones that repair them. */
export const FIX_TYPES = [
  "upscale_resolution_2x",
  "upscale_resolution_4x",
  "add_bleed",
  "remove_transparency",
  "sharpen_edges",
  "resize_to_spec",
  "convert_color_mode",
] as const;
export type FixType = (typeof FIX_TYPES)[number];

/**
 * PDF issues and their fixes. The contract prices PDF fixes in two tiers: bleed
 * only (`add_bleed`, 150 tokens) and the prepress engine (Ghostscript pdfwrite:
 * embed all fonts, RGB to DeviceCMYK, downsample images to 300 ppi, flatten
 * transparency; 300 tokens), and that engine does all four steps in one pass.
 *
 * A PDF issue names its fix in two fields:
 * - `fixTypes` uses only contract names: `add_bleed` (bleed tier),
 *   `convert_color_mode` (RGB/spot to CMYK) and `remove_transparency`
 *   (flatten), the last two meaning the prepress tier on a PDF;
 * - `details.prepressFix` names the prepress step that repairs it
 *   (`rgb_to_cmyk`, `flatten_transparency`, `embed_fonts`), including font
 *   embedding, which has no contract fix type of its own.
 * A fix job derived from a PDF report therefore runs the prepress tier when any
 * issue has a `prepressFix`, and the bleed tier when only `add_bleed` is listed.
 */
export const PDF_PREPRESS_STEPS = ["embed_fonts", "rgb_to_cmyk", "flatten_transparency", "downsample_images"] as const;
export type PdfPrepressStep = (typeof PDF_PREPRESS_STEPS)[number];

/** What a fix job would do for a report: the distinct fix types and prepress steps its issues name. */
export function deriveFixes(issues: { fixTypes: string[]; details: Record<string, unknown> }[]): { fixTypes: FixType[]; prepressSteps: PdfPrepressStep[] } {
  const fixTypes = new Set<FixType>();
  const steps = new Set<PdfPrepressStep>();
  for (const issue of issues) {
    for (const f of issue.fixTypes) if ((FIX_TYPES as readonly string[]).includes(f)) fixTypes.add(f as FixType);
    const step = issue.details.prepressFix;
    if (typeof step === "string" && (PDF_PREPRESS_STEPS as readonly string[]).includes(step)) steps.add(step as PdfPrepressStep);
  }
  return { fixTypes: FIX_TYPES.filter((f) => fixTypes.has(f)), prepressSteps: PDF_PREPRESS_STEPS.filter((s) => steps.has(s)) };
}

/** The upscale that reaches `required` from `actual` ppi (4x is the most there is), then sharpening. */
export function upscaleFixes(actualPpi: number, requiredPpi: number): FixType[] {
  return [requiredPpi / actualPpi <= 2 ? "upscale_resolution_2x" : "upscale_resolution_4x", "sharpen_edges"];
}
