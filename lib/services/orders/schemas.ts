import { z } from "zod";
import { paginatedResponse } from "@/lib/foundation/http/pagination";
import { decimalInt } from "@/lib/foundation/http/decimal-int";
import { ORDER_STATUSES } from "@/lib/foundation/db/schema";

const CURRENCIES = new Set(Intl.supportedValuesOf("currency"));
const text = (what: string, max = 200) => z.string({ error: `Give ${what}.` }).trim().min(1, `Give ${what}.`).max(max, `At most ${max} characters.`);
/** Money in minor units of the sheet's currency (1999 for 19.99). */
const money = (what: string) =>
  z
    .number({ error: `Give ${what} in minor units (1999 for 19.99).` })
    .int("Whole minor units: 1999 for 19.99.")
    .min(0, "Cannot be negative.")
    .max(100_000_000, "At most 100000000 minor units.");
/** Ids the editor may choose for new lines so packages can name them in the same request; the server makes one when absent. */
const lineId = z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, "Letters, digits, '_' and '-', at most 40.");

export const currencyField = z
  .string({ error: "Give the currency: a three-letter code such as usd." })
  .trim()
  .toLowerCase()
  .regex(/^[a-z]{3}$/, "A three-letter ISO 4217 code such as usd.")
  .refine((c) => CURRENCIES.has(c.toUpperCase()), "Not an ISO 4217 currency code.");

const sheetItem = z.strictObject({
  id: lineId.optional(),
  kind: z.enum(["print", "digital"], { error: "Choose the kind: print or digital." }),
  /** A print's product (its size, bleed and minimum ppi); none for a digital file. */
  product_id: z.string().min(1).max(64).nullable().optional(),
  name: text("the item's name").optional(),
  price: money("the retail price"),
  lab_cost: money("the lab cost"),
  /** A print the parent may have composited onto one of the studio's backgrounds. */
  allow_backgrounds: z.boolean().optional(),
});
const sheetPackage = z.strictObject({
  id: lineId.optional(),
  name: text("the package's name"),
  price: money("the package's price"),
  items: z
    .array(z.strictObject({ item_id: lineId, quantity: z.number().int().min(1).max(100) }), { error: "List the package's items." })
    .min(1, "A package holds at least one item.")
    .max(50),
});
const shippingOption = z.discriminatedUnion(
  "type",
  [
    z.strictObject({ id: lineId.optional(), type: z.literal("home"), name: text("the option's name"), price: money("the shipping price") }),
    z.strictObject({ id: lineId.optional(), type: z.literal("school"), name: text("the option's name"), batch_date: z.iso.date("A date: YYYY-MM-DD.") }),
  ],
  { error: "Choose the shipping type: home or school." },
);

const sheetFields = {
  name: text("the sheet's name"),
  currency: currencyField,
  /** Basis points: 825 is 8.25 %. */
  tax_rate_bps: z.number({ error: "The tax rate in basis points: 825 for 8.25 %." }).int("Whole basis points: 825 for 8.25 %.").min(0).max(10_000, "At most 10000 (100 %)."),
  items: z.array(sheetItem).max(200),
  packages: z.array(sheetPackage).max(100),
  shipping: z.array(shippingOption).max(20),
};
export const createSheetBody = z.strictObject({ ...sheetFields, tax_rate_bps: sheetFields.tax_rate_bps.default(0), items: sheetFields.items.default([]), packages: sheetFields.packages.default([]), shipping: sheetFields.shipping.default([]) });
export const updateSheetBody = z.strictObject({
  name: sheetFields.name.optional(),
  currency: sheetFields.currency.optional(),
  tax_rate_bps: sheetFields.tax_rate_bps.optional(),
  items: sheetFields.items.optional(),
  packages: sheetFields.packages.optional(),
  shipping: sheetFields.shipping.optional(),
});
export type CreateSheetInput = z.output<typeof createSheetBody>;
export type UpdateSheetInput = z.output<typeof updateSheetBody>;

export const sheetParams = z.object({ id: z.string().min(1).max(64) });
export const promoParams = z.object({ id: z.string().min(1).max(64), codeId: z.string().min(1).max(64) });
export const orderParams = z.object({ id: z.string().min(1).max(64) });
const intId = decimalInt(1, 2_147_483_647, { digits: "Must be an integer id (decimal digits)." });
export const jobSheetParams = z.object({ agencyId: intId, jobId: intId });
export const assignSheetBody = z.strictObject({ price_sheet_id: z.string({ error: "Give the price sheet's id." }).min(1).max(64).nullable() });

export const createPromoBody = z
  .strictObject({
    code: z
      .string({ error: "Give the code." })
      .trim()
      .toUpperCase()
      .regex(/^[A-Z0-9-]{3,32}$/, "3 to 32 letters, digits or '-'."),
    kind: z.enum(["percent", "amount"], { error: "Choose the kind: percent or amount." }),
    value: z.number({ error: "Give the value: a percentage 1..100, or an amount in minor units." }).int("A whole number.").min(1, "At least 1."),
    expires_at: z.iso.datetime({ offset: true, error: "An ISO 8601 date and time, e.g. 2026-12-31T23:59:59Z." }).nullable().default(null),
    max_uses: z.number().int().min(1, "At least 1 use.").nullable().default(null),
  })
  .refine((p) => p.kind !== "percent" || p.value <= 100, { message: "A percentage is at most 100.", path: ["value"] });

export const sheetResponse = z.object({
  id: z.string(),
  name: z.string(),
  currency: z.string(),
  tax_rate_bps: z.number().int(),
  items: z.array(z.object({ id: z.string(), kind: z.enum(["print", "digital"]), product_id: z.string().nullable(), name: z.string(), price: z.number().int(), lab_cost: z.number().int(), allow_backgrounds: z.boolean(), product: z.object({ width_in: z.number(), height_in: z.number(), bleed_mm: z.number(), min_ppi: z.number().int(), product_type: z.string() }).nullable() })),
  packages: z.array(z.object({ id: z.string(), name: z.string(), price: z.number().int(), items: z.array(z.object({ item_id: z.string(), quantity: z.number().int() })) })),
  shipping: z.array(z.object({ id: z.string(), type: z.enum(["home", "school"]), name: z.string(), price: z.number().int().optional(), batch_date: z.string().optional() })),
  created_at: z.string(),
  updated_at: z.string(),
});
export const sheetListResponse = paginatedResponse(sheetResponse);
export const promoResponse = z.object({ id: z.string(), code: z.string(), kind: z.enum(["percent", "amount"]), value: z.number().int(), expires_at: z.string().nullable(), max_uses: z.number().int().nullable(), uses: z.number().int(), created_at: z.string() });
export const promoListResponse = z.object({ data: z.array(promoResponse) });
export const jobSheetResponse = z.object({ job_id: z.number().int(), price_sheet_id: z.string().nullable() });
export const deletedResponse = z.object({ deleted: z.literal(true) });

export const connectResponse = z.object({
  connected: z.boolean(),
  stripe_account_id: z.string().nullable(),
  charges_enabled: z.boolean(),
  details_submitted: z.boolean(),
  payouts_enabled: z.boolean(),
  /** Where to send the studio to finish onboarding (POST only). */
  onboarding_url: z.string().optional(),
});
export const connectBody = z.strictObject({ type: z.enum(["express", "standard"]).default("express"), country: z.string().regex(/^[A-Z]{2}$/, "Two capital letters, e.g. US.").optional() });

// The parent's checkout. Prices are never taken from here: unknown fields (a `price`) are a 400.
const address = z.strictObject({
  name: text("the recipient's name"),
  line1: text("the street address"),
  line2: z.string().trim().max(200).optional(),
  city: text("the city"),
  postal_code: text("the postal code", 20),
  state: z.string().trim().max(100).optional(),
  country: z.string().trim().toUpperCase().regex(/^[A-Z]{2}$/, "Two letters, e.g. US."),
});
/** A crop box as fractions of the photo (the cart's, and production's fix of a held print). */
export const cropBox = z
  .strictObject({ x: z.number().min(0).max(1), y: z.number().min(0).max(1), width: z.number().gt(0).max(1), height: z.number().gt(0).max(1) })
  .refine((c) => c.x + c.width <= 1.0001 && c.y + c.height <= 1.0001, "The crop box must lie inside the photo (fractions 0..1).");
export const cartLine = z
  .strictObject({
    photo_id: z.string({ error: "Give the photo's id." }).min(1).max(64),
    item_id: lineId.optional(),
    package_id: lineId.optional(),
    quantity: z.number({ error: "Give the quantity." }).int("A whole number.").min(1, "At least 1.").max(100, "At most 100."),
    crop: cropBox.optional(),
    /** One of the studio's backgrounds, for an item (or a package with a print) that allows them. */
    background_id: z.string().min(1).max(64).optional(),
    yearbook_pose: z.boolean().default(false),
  })
  .refine((l) => (l.item_id === undefined) !== (l.package_id === undefined), { message: "Name either item_id or package_id.", path: ["item_id"] });
export type CartLine = z.output<typeof cartLine>;
export const checkoutBody = z
  .strictObject({
    email: z.email({ error: "Give an e-mail address for the receipt." }).max(254),
    lines: z.array(cartLine, { error: "List the cart's lines." }).min(1, "The cart is empty.").max(100, "At most 100 lines."),
    shipping_option_id: lineId,
    address: address.optional(),
    promo_code: z.string().trim().toUpperCase().max(32).optional(),
  });
export type CheckoutInput = z.output<typeof checkoutBody>;
export const checkoutResponse = z.object({ order_id: z.string(), checkout_url: z.string(), total: z.number().int(), currency: z.string() });

export const orderListQuery = z.strictObject({
  limit: decimalInt(1, 100).default(20),
  page: decimalInt(1).default(1),
  job_id: intId.optional(),
  status: z.enum(ORDER_STATUSES, { error: `One of ${ORDER_STATUSES.join(", ")}.` }).optional(),
  from: z.iso.date("A date: YYYY-MM-DD.").optional(),
  to: z.iso.date("A date: YYYY-MM-DD.").optional(),
});
export const updateOrderBody = z
  .strictObject({
    status: z.enum(["in_production", "shipped", "delivered"], { error: "Move to in_production, shipped or delivered." }),
    tracking_number: z.string().trim().min(1).max(100).optional(),
    carrier: z.string().trim().min(1).max(100).optional(),
  });
export const refundBody = z.strictObject({
  /** One item; none refunds what is left of the whole order. */
  item_id: z.string().min(1).max(64).optional(),
  reason: z.string().trim().max(500).optional(),
});
export const salesQuery = z.strictObject({ job_id: intId.optional() });

const orderItemResponse = z.object({
  id: z.string(),
  photo_id: z.string(),
  kind: z.enum(["item", "package"]),
  ref_id: z.string(),
  name: z.string(),
  quantity: z.number().int(),
  unit_price: z.number().int(),
  line_total: z.number().int(),
  lab_cost: z.number().int(),
  crop: z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() }).nullable(),
  background_id: z.string().nullable(),
  yearbook_pose: z.boolean(),
  /** A digital file was sold with this line: downloadable in full resolution once paid. */
  digital: z.boolean(),
  refunded_amount: z.number().int(),
});
export const orderResponse = z.object({
  id: z.string(),
  job_id: z.number().int().nullable(),
  subject_id: z.string().nullable(),
  email: z.string(),
  status: z.enum(ORDER_STATUSES),
  currency: z.string(),
  subtotal: z.number().int(),
  discount: z.number().int(),
  tax: z.number().int(),
  shipping_amount: z.number().int(),
  total: z.number().int(),
  fee: z.number().int(),
  lab_cost: z.number().int(),
  refunded_amount: z.number().int(),
  promo_code: z.string().nullable(),
  shipping: z.object({ option_id: z.string(), type: z.enum(["home", "school"]), name: z.string(), batch_date: z.string().optional(), address: z.record(z.string(), z.string()).optional() }),
  tracking_number: z.string().nullable(),
  carrier: z.string().nullable(),
  disputed: z.boolean(),
  items: z.array(orderItemResponse),
  /** `failed_at`: Stripe reported the refund failed; its amount is back in the order's totals. */
  refunds: z.array(z.object({ id: z.string(), item_id: z.string().nullable(), amount: z.number().int(), reason: z.string().nullable(), created_at: z.string(), failed_at: z.string().nullable() })),
  /** Every parcel as it left, oldest first: an order printed in two lab batches ships in two, each with its tracking (`tracking_number`/`carrier` above are the last one's). `batch_id` null: marked shipped by hand. */
  shipments: z.array(z.object({ batch_id: z.string().nullable(), carrier: z.string().nullable(), tracking_number: z.string().nullable(), shipped_at: z.string() })),
  created_at: z.string(),
  paid_at: z.string().nullable(),
  shipped_at: z.string().nullable(),
  delivered_at: z.string().nullable(),
  canceled_at: z.string().nullable(),
  /** The retention period passed: the order's print files were removed and its downloads ended (the order and its money stay). */
  photos_removed_at: z.string().nullable(),
});
export const orderListResponse = paginatedResponse(orderResponse.omit({ items: true, refunds: true, shipments: true }).extend({ item_count: z.number().int() }));
export const salesResponse = z.object({
  data: z.array(z.object({ job_id: z.number().int().nullable(), job_name: z.string().nullable(), currency: z.string(), orders: z.number().int(), gross: z.number().int(), refunds: z.number().int(), fees: z.number().int(), lab_cost: z.number().int(), net: z.number().int() })),
});

export const parentSheetResponse = z.object({
  currency: z.string(),
  tax_rate_bps: z.number().int(),
  items: z.array(sheetResponse.shape.items.element.omit({ lab_cost: true, product_id: true })),
  packages: sheetResponse.shape.packages,
  shipping: sheetResponse.shape.shipping,
  /** The studio's backgrounds, for the items that allow one (empty when none does). */
  backgrounds: z.array(z.object({ id: z.string(), name: z.string(), kind: z.enum(["image", "color"]), color: z.string().nullable(), thumbnail_url: z.string().nullable() })),
});

/** POST /v1/orders/{id}/downloads: nothing to give (an empty object). */
export const resendDownloadsBody = z.strictObject({});
export const downloadsResentResponse = z.object({
  order_id: z.string(),
  email: z.string(),
  /** How many digital lines the e-mail links to. */
  downloads: z.number().int(),
  /** `sent`: the mail server took it; `pending`: it is retried. */
  mail: z.enum(["sent", "pending"]),
});

const photoBox = z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() });
/** GET /v1/parent/photos/{photoId}/face: where the cart's crop starts (fractions of the photo). */
export const parentPhotoFaceResponse = z.object({
  photo_id: z.string(),
  /** null: no face found; the crop starts as the largest centred box. */
  face: z
    .object({
      /** The face's tight box (brow to chin, cheek to cheek). */
      box: photoBox,
      /** Face Crop's window for the job's preset (may reach outside the photo); the cart keeps its centre and height at the print's aspect. */
      frame: photoBox,
    })
    .nullable(),
});
