import { sql } from "drizzle-orm";
import { boolean, check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { accountId, maybeStamp, stamp } from "./columns";
import { agencyJobs } from "./studio";

// Selling a picture day: the studio's price sheets (what a parent can buy from a job,
// at which price), its connected Stripe account, and the orders parents pay on it.
// Money is integer minor units of the sheet's currency throughout; an order keeps a
// copy of every price it was sold at, so editing a sheet never changes a sale.


/** One sellable line of a sheet: a print of a product, or a digital file. */
export type SheetItem = { id: string; kind: "print" | "digital"; product_id: string | null; name: string; price: number; lab_cost: number; allow_backgrounds?: boolean };
/** A bundle of items at one price (e.g. 1 × 8x10 + 2 × 5x7 + the digital file). */
export type SheetPackage = { id: string; name: string; price: number; items: { item_id: string; quantity: number }[] };
/** Home: to the parent's address at a price. School: in one batch to the school by a date, free. */
export type ShippingOption = { id: string; type: "home"; name: string; price: number } | { id: string; type: "school"; name: string; batch_date: string };

/**
 * A price sheet. Items, packages and shipping options are edited together (the
 * editor saves the sheet), so they are kept with it; their ids are stable across
 * edits so carts and orders can name them. Tax is a rate of the sheet in basis
 * points (825 = 8.25 %), applied to goods after the promo discount.
 */
export const priceSheets = pgTable(
  "price_sheets",
  {
    id: text("id").primaryKey(),
    accountId: accountId(),
    name: text("name").notNull(),
    /** ISO 4217, lower case as Stripe writes it. */
    currency: text("currency").notNull(),
    taxRateBps: integer("tax_rate_bps").notNull().default(0),
    items: jsonb("items").$type<SheetItem[]>().notNull().default([]),
    packages: jsonb("packages").$type<SheetPackage[]>().notNull().default([]),
    shipping: jsonb("shipping").$type<ShippingOption[]>().notNull().default([]),
    createdAt: stamp("created_at"),
    updatedAt: stamp("updated_at"),
  },
  (t) => [index("price_sheets_account_idx").on(t.accountId, t.createdAt), check("price_sheets_tax_rate", sql`${t.taxRateBps} BETWEEN 0 AND 10000`)],
);

/** Promo codes of a sheet; `uses` is counted when a checkout takes the code, so the limit holds under concurrency. */
export const promoCodes = pgTable(
  "promo_codes",
  {
    id: text("id").primaryKey(),
    accountId: accountId(),
    priceSheetId: text("price_sheet_id")
      .notNull()
      .references(() => priceSheets.id, { onDelete: "cascade" }),
    /** Upper case; parents type it in any case. */
    code: text("code").notNull(),
    /** percent: 1..100 in `value`; amount: minor units in `value`. */
    kind: text("kind").notNull(),
    value: integer("value").notNull(),
    expiresAt: maybeStamp("expires_at"),
    maxUses: integer("max_uses"),
    uses: integer("uses").notNull().default(0),
    createdAt: stamp("created_at"),
  },
  (t) => [
    uniqueIndex("promo_codes_sheet_code_key").on(t.priceSheetId, t.code),
    check("promo_codes_kind", sql`${t.kind} IN ('percent', 'amount')`),
    check("promo_codes_uses", sql`${t.maxUses} IS NULL OR ${t.uses} <= ${t.maxUses}`),
  ],
);

/** The sheet a job's galleries sell from (one per job). */
export const jobPriceSheets = pgTable("job_price_sheets", {
  jobId: integer("job_id")
    .primaryKey()
    .references(() => agencyJobs.id, { onDelete: "cascade" }),
  accountId: accountId(),
  priceSheetId: text("price_sheet_id")
    .notNull()
    .references(() => priceSheets.id, { onDelete: "restrict" }),
  updatedAt: stamp("updated_at"),
});

/** The studio's own Stripe account (Connect), its state as Stripe last told us (account.updated). */
export const stripeConnectAccounts = pgTable("stripe_connect_accounts", {
  accountId: text("account_id")
    .primaryKey()
    .references(() => accounts.id, { onDelete: "cascade" }),
  stripeAccountId: text("stripe_account_id").notNull().unique(),
  chargesEnabled: boolean("charges_enabled").notNull().default(false),
  detailsSubmitted: boolean("details_submitted").notNull().default(false),
  payoutsEnabled: boolean("payouts_enabled").notNull().default(false),
  createdAt: stamp("created_at"),
  updatedAt: stamp("updated_at"),
});

export const ORDER_STATUSES = ["pending", "paid", "in_production", "shipped", "delivered", "canceled", "refunded"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
export type OrderShipping = { option_id: string; type: "home" | "school"; name: string; batch_date?: string; address?: Record<string, string> };

/**
 * A parent's order. Written `pending` with the Checkout Session; only the verified
 * checkout.session.completed webhook makes it `paid` (a conditional update, so once).
 */
export const orders = pgTable(
  "orders",
  {
    id: text("id").primaryKey(),
    accountId: accountId(),
    jobId: integer("job_id").references(() => agencyJobs.id, { onDelete: "set null" }),
    subjectId: text("subject_id"),
    priceSheetId: text("price_sheet_id"),
    email: text("email").notNull(),
    status: text("status").$type<OrderStatus>().notNull().default("pending"),
    currency: text("currency").notNull(),
    subtotal: integer("subtotal").notNull(),
    discount: integer("discount").notNull().default(0),
    tax: integer("tax").notNull().default(0),
    shippingAmount: integer("shipping_amount").notNull().default(0),
    total: integer("total").notNull(),
    /** The platform's application fee on the payment. */
    fee: integer("fee").notNull().default(0),
    labCost: integer("lab_cost").notNull().default(0),
    refundedAmount: integer("refunded_amount").notNull().default(0),
    promoCode: text("promo_code"),
    shipping: jsonb("shipping").$type<OrderShipping>().notNull(),
    trackingNumber: text("tracking_number"),
    carrier: text("carrier"),
    /** The studio's connected account paid into; null for a free order (a promo made it 0) at a studio without one. */
    stripeAccountId: text("stripe_account_id"),
    stripeSessionId: text("stripe_session_id").unique(),
    paymentIntentId: text("payment_intent_id"),
    disputed: boolean("disputed").notNull().default(false),
    createdAt: stamp("created_at"),
    paidAt: maybeStamp("paid_at"),
    shippedAt: maybeStamp("shipped_at"),
    deliveredAt: maybeStamp("delivered_at"),
    canceledAt: maybeStamp("canceled_at"),
    /** When the retention sweep removed the order's photo files (print files; downloads end): the row and its money stay. */
    photosRemovedAt: maybeStamp("photos_removed_at"),
  },
  (t) => [
    index("orders_account_created_idx").on(t.accountId, t.createdAt),
    index("orders_account_job_idx").on(t.accountId, t.jobId),
    index("orders_payment_intent_idx").on(t.paymentIntentId),
    check("orders_status", sql`${t.status} IN ('pending', 'paid', 'in_production', 'shipped', 'delivered', 'canceled', 'refunded')`),
    check("orders_refund_le_total", sql`${t.refundedAmount} <= ${t.total}`),
  ],
);

/** One cart line as sold: the photo, what it is, the prices then. */
export const orderItems = pgTable(
  "order_items",
  {
    id: text("id").primaryKey(),
    orderId: text("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    accountId: accountId(),
    /** The gallery photo (the job file's id as the galleries name it). */
    photoId: text("photo_id").notNull(),
    /** Cart order, from 0. */
    position: integer("position").notNull(),
    kind: text("kind").$type<"item" | "package">().notNull(),
    /** The sheet item's or package's id. */
    refId: text("ref_id").notNull(),
    name: text("name").notNull(),
    quantity: integer("quantity").notNull(),
    unitPrice: integer("unit_price").notNull(),
    unitLabCost: integer("unit_lab_cost").notNull(),
    lineTotal: integer("line_total").notNull(),
    /** The crop box in the photo, as fractions 0..1 of its width and height. */
    crop: jsonb("crop").$type<{ x: number; y: number; width: number; height: number }>(),
    /** The studio background the parent chose for the child (a print item that allows them). */
    backgroundId: text("background_id"),
    yearbookPose: boolean("yearbook_pose").notNull().default(false),
    refundedAmount: integer("refunded_amount").notNull().default(0),
    /** A digital file (alone or in a package) was sold with this line: its original may be downloaded once paid. */
    digital: boolean("digital").notNull().default(false),
  },
  (t) => [index("order_items_order_idx").on(t.orderId)],
);

/** A refund as Stripe made it: unique by Stripe's id, so the API call and its webhook record it once. */
export const orderRefunds = pgTable(
  "order_refunds",
  {
    stripeRefundId: text("stripe_refund_id").primaryKey(),
    orderId: text("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    accountId: accountId(),
    orderItemId: text("order_item_id"),
    amount: integer("amount").notNull(),
    reason: text("reason"),
    createdAt: stamp("created_at"),
    /** Stripe reported the refund failed (or canceled) after it was recorded: its amount is back on the order. */
    failedAt: timestamp("failed_at", { withTimezone: true }),
    /** The order's status when this refund made it whole (`refunded`): what it returns to if the refund fails. */
    statusBefore: text("status_before").$type<OrderStatus>(),
  },
  (t) => [index("order_refunds_order_idx").on(t.orderId)],
);

/**
 * One parcel of an order as it left: an order printed in two batches ships in two parcels,
 * each with its own carrier and tracking (a school parcel may have none). The order's own
 * `tracking_number`/`carrier` are the last parcel's. `batch_id`: the lab batch it left with
 * (null: the studio marked the order shipped itself); one parcel per order and batch.
 */
export const orderShipments = pgTable(
  "order_shipments",
  {
    id: text("id").primaryKey(),
    orderId: text("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    accountId: accountId(),
    batchId: text("batch_id"),
    carrier: text("carrier"),
    trackingNumber: text("tracking_number"),
    shippedAt: stamp("shipped_at"),
  },
  (t) => [uniqueIndex("order_shipments_order_batch_key").on(t.orderId, t.batchId), index("order_shipments_order_idx").on(t.orderId, t.shippedAt)],
);

/** A dispute (chargeback) on an order's payment, recorded once per Stripe dispute. */
export const orderDisputes = pgTable(
  "order_disputes",
  {
    stripeDisputeId: text("stripe_dispute_id").notNull(),
    orderId: text("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    accountId: accountId(),
    amount: integer("amount").notNull(),
    reason: text("reason"),
    status: text("status").notNull(),
    createdAt: stamp("created_at"),
  },
  (t) => [primaryKey({ columns: [t.stripeDisputeId] })],
);
