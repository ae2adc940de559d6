import { z } from "zod";
import { COLOR_MODES, PRODUCT_STATUSES, PRODUCT_TYPES } from "./catalog-values";
import { listQueryShape, resolveListCursor } from "./list-query";

/** True when `v` has at most `places` decimals (8.5 and 11.693 pass, 0.1234 does not for 3). */
const maxDecimals = (places: number) => (v: number) => {
  const f = 10 ** places;
  return Math.round(v * f) / f === v;
};

/**
 * A number field with messages in words, naming the field: missing ("Give the
 * width in inches.") and not a number ("Width must be a number, e.g. 16."), never
 * zod's "expected number, received undefined".
 */
const numberField = (missing: string, notNumber: string) =>
  z.number({ error: (iss) => (iss.input === undefined || iss.input === null || iss.input === "" ? missing : notNumber) });

// ICU's ISO 4217 list, as shipped with Node: no hand-kept table to go stale.
const CURRENCIES = new Set(Intl.supportedValuesOf("currency"));

const fields = {
  sku: z
    .string({ error: "Give the SKU." })
    .trim()
    .min(1, "Give the SKU.")
    .max(64, "The SKU is longer than 64 characters.")
    // An empty SKU has its own message above ("Give the SKU."), not this one too.
    .regex(/^$|^[A-Za-z0-9][A-Za-z0-9._\-/]*$/, "Letters, digits, '.', '_', '-' and '/', starting with a letter or digit."),
  name: z.string({ error: "Name the product." }).trim().min(1, "Name the product.").max(200, "The name is longer than 200 characters."),
  product_type: z.enum(PRODUCT_TYPES, { error: `Choose the product type: one of ${PRODUCT_TYPES.join(", ")}.` }),
  width_in: numberField("Give the width in inches.", "The width must be a number of inches, e.g. 16.")
    .positive("The width must be more than 0 inches.")
    .max(1200, "The width is at most 1200 inches.")
    .refine(maxDecimals(3), "At most 3 decimal places."),
  height_in: numberField("Give the height in inches.", "The height must be a number of inches, e.g. 20.")
    .positive("The height must be more than 0 inches.")
    .max(1200, "The height is at most 1200 inches.")
    .refine(maxDecimals(3), "At most 3 decimal places."),
  bleed_mm: numberField("Give the bleed in millimetres (0 for none).", "The bleed must be a number of millimetres, e.g. 3.")
    .min(0, "The bleed cannot be negative.")
    .max(50, "The bleed is at most 50 mm.")
    .refine(maxDecimals(2), "At most 2 decimal places."),
  min_ppi: numberField("Give the minimum PPI.", "The minimum PPI must be a whole number, e.g. 150.")
    .int("The minimum PPI must be a whole number, e.g. 150.")
    .min(1, "The minimum PPI is at least 1.")
    .max(2400, "The minimum PPI is at most 2400."),
  color_mode: z.enum(COLOR_MODES, { error: `Choose the colour mode: one of ${COLOR_MODES.join(", ")}.` }),
  price: numberField("Give the price (in minor units through the API: 1999 for 19.99).", "The price must be a whole number of minor units: 1999 for 19.99.")
    .int("Whole minor units: 1999 for 19.99.")
    .min(0, "The price cannot be negative.")
    .max(1_000_000_000, "The price is at most 1000000000 minor units."),
  currency: z
    .string({ error: "Give the currency: a three-letter code such as USD or EUR." })
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{3}$/, "A three-letter ISO 4217 code such as USD or EUR.")
    .refine((c) => CURRENCIES.has(c), "Not an ISO 4217 currency code."),
  status: z.enum(PRODUCT_STATUSES),
  is_public: z.boolean(),
};

export const createProductBody = z.strictObject({
  ...fields,
  bleed_mm: fields.bleed_mm.default(3),
  // Omitted: preflight's minimum for the product type (see products.ts).
  min_ppi: fields.min_ppi.optional(),
  color_mode: fields.color_mode.default("cmyk"),
  status: fields.status.default("active"),
  is_public: fields.is_public.default(false),
});
export type CreateProductInput = z.output<typeof createProductBody>;

export const updateProductBody = z
  .strictObject(fields)
  .partial()
  .refine((b) => Object.keys(b).length > 0, "Send at least one field to change.");
export type UpdateProductInput = z.output<typeof updateProductBody>;

export const productParams = z.object({ id: z.string().min(1).max(64) });

export const productListQuery = z.strictObject(listQueryShape(PRODUCT_STATUSES)).transform(resolveListCursor);
export type ProductListQuery = z.output<typeof productListQuery>;

/** A product as the API returns it (toPublicProduct). */
export const productResponse = z.object({
  id: z.string(),
  sku: z.string(),
  name: z.string(),
  product_type: z.string(),
  width_in: z.number(),
  height_in: z.number(),
  bleed_mm: z.number(),
  min_ppi: z.number().int(),
  color_mode: z.string(),
  price: z.number().int().meta({ description: "Integer minor units of currency (cents for USD)." }),
  currency: z.string(),
  status: z.enum(PRODUCT_STATUSES),
  is_public: z.boolean(),
  created_at: z.iso.datetime({ offset: true }),
  updated_at: z.iso.datetime({ offset: true }),
});
