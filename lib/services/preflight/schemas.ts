import { z } from "zod";
import { PRODUCT_TYPES } from "./product-types";

/** Pixel sizes: whole numbers; a million pixels a side is far beyond any camera or scanner. */
const pixels = (what: string) =>
  z
    .number({ error: `${what} must be a number of pixels.` })
    .int(`${what} must be a whole number of pixels.`)
    .positive(`${what} must be greater than 0.`)
    .max(1_000_000, `${what} may be at most 1,000,000 pixels.`);

/**
 * Canvas sizes in inches: 0.001 in (the precision of a product's size) to 1,000 in (25 m),
 * which no product approaches. The floor keeps every derived resolution finite: a
 * million pixels over 1e-320 in is Infinity, which JSON would write as null.
 */
export const MIN_CANVAS_INCHES = 0.001;
const inches = (what: string) =>
  z
    .number({ error: `${what} must be a number of inches.` })
    .min(MIN_CANVAS_INCHES, `${what} must be at least ${MIN_CANVAS_INCHES} inches.`)
    .max(1000, `${what} may be at most 1,000 inches.`);

const productType = z.enum(PRODUCT_TYPES, { error: `productType must be one of ${PRODUCT_TYPES.join(", ")}.` });

export const dpiScoreBody = z.strictObject({
  widthPx: pixels("widthPx"),
  heightPx: pixels("heightPx"),
  canvasWidthInches: inches("canvasWidthInches"),
  canvasHeightInches: inches("canvasHeightInches"),
  productType,
});

/** POST /v1/services/preflight/dpi-score: the stars (1 to 5) for the weaker axis's pixels per inch against the product's minimum. */
export const dpiScoreResponse = z.object({
  data: z.object({
    stars: z.number().int().min(1).max(5),
    label: z.string(),
    effectivePpi: z.number(),
    minPpi: z.number(),
    productType: z.enum(PRODUCT_TYPES),
  }),
});

export const FILE_TYPES = ["jpeg", "png", "tiff", "pdf"] as const;
export const COLOR_MODES = ["cmyk", "rgb", "grayscale"] as const;

export const createCheckBody = z
  .strictObject({
    designId: z.string({ error: "designId is required." }).min(1, "designId must not be empty.").max(200, "designId may be at most 200 characters."),
    fileUrl: z.url({ protocol: /^https?$/, error: "fileUrl must be an http(s) URL." }).max(4096),
    fileType: z.enum(FILE_TYPES, { error: `fileType must be one of ${FILE_TYPES.join(", ")}.` }).optional(),
    productProfile: z
      .strictObject({
        requiredDpi: z.number().positive("requiredDpi must be greater than 0.").max(2400, "requiredDpi may be at most 2400.").optional(),
        // Case-insensitive so "CMYK" works; stored lower-case.
        requiredColorMode: z
          .string()
          .transform((s) => s.toLowerCase())
          .pipe(z.enum(COLOR_MODES, { error: `requiredColorMode must be one of ${COLOR_MODES.join(", ")}.` }))
          .optional(),
        bleedMm: z.number().min(0, "bleedMm must be 0 or more.").max(50, "bleedMm may be at most 50.").optional(),
      })
      .optional(),
    canvasWidthInches: inches("canvasWidthInches").optional(),
    canvasHeightInches: inches("canvasHeightInches").optional(),
    productType: productType.optional(),
  })
  .superRefine((body, ctx) => {
    // A canvas needs both sides: one alone cannot place the file.
    if ((body.canvasWidthInches === undefined) !== (body.canvasHeightInches === undefined)) {
      const missing = body.canvasWidthInches === undefined ? "canvasWidthInches" : "canvasHeightInches";
      ctx.addIssue({ code: "custom", path: [missing], message: "Give both canvasWidthInches and canvasHeightInches, or neither." });
    }
  });
export type CreateCheckBody = z.output<typeof createCheckBody>;

export const reportParams = z.object({ reportId: z.string().min(1).max(64) });
