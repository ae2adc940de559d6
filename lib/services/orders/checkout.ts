import type Stripe from "stripe";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import type { SheetItem, SheetPackage } from "@/lib/foundation/db/schema";
import { gallerySettings, orderItems, orders, promoCodes, studioBackgrounds } from "@/lib/foundation/db/schema";
import { config } from "@/lib/foundation/config";
import { newId } from "@/lib/foundation/ids";
import { ApiError } from "@/lib/foundation/http/api-error";
import { stripe, viaStripe } from "@/lib/services/billing/stripe-client";
import { invalidField, sheetForJob } from "./price-sheets";
import { priceCart, type Priced } from "./pricing";
import { takePromo } from "./promo-codes";
import { cannotTakePayments, chargeableAccount } from "./stripe-connect";
import { orderStatusUrl } from "./order-link";
import { settlePaid } from "./settle-paid";
import { sendQueuedMail } from "@/lib/domain/mail/send-mail";
import { purchasablePhotos, type ParentScope } from "./parent-scope";
import type { CheckoutInput } from "./schemas";

/**
 * A parent's checkout. Every price comes from the job's price sheet here, on the
 * server; the cart names only photos, items or packages and quantities. The order
 * and its lines are written `pending`, then a Checkout Session is opened on the
 * studio's own Stripe account with the platform's fee as application fee. Only the
 * verified webhook makes the order paid (lib/services/orders/connect-events.ts).
 */
export async function startParentCheckout(db: Db, scope: ParentScope, input: CheckoutInput) {
  const sheet = await sheetForJob(db, scope.accountId, scope.jobId);
  if (!sheet) throw new ApiError(409, "NOTHING_FOR_SALE", "This gallery has nothing for sale yet: the studio has not set its prices.");
  const allowed = await purchasablePhotos(db, scope, input.lines.map((l) => l.photo_id));
  input.lines.forEach((l, n) => {
    if (!allowed.has(l.photo_id)) throw invalidField(`lines.${n}.photo_id`, "No such photo in your gallery.");
  });
  await assertDigitalSold(db, scope.accountId, sheet, input);
  const stripeAccount = await chargeableAccount(db, scope.accountId);
  const option = sheet.shipping.find((s) => s.id === input.shipping_option_id);
  if (option?.type === "home" && !input.address) throw invalidField("address", "Give the address to ship to.");

  const orderId = newId("ord");
  const priced = await db.transaction(async (tx) => {
    const promo = input.promo_code ? await takePromo(tx, sheet.id, input.promo_code) : null;
    const p = priceCart(sheet, input.lines, input.shipping_option_id, promo, config().PLATFORM_FEE_PERCENT, await chosenBackgrounds(tx, scope.accountId, input));
    // A cart a promo made free takes no card payment, so a studio without Stripe can still give it;
    // anything else is refused here, before the promo's use is kept.
    if (p.total > 0 && !stripeAccount) cannotTakePayments();
    await tx.insert(orders).values({
      id: orderId,
      accountId: scope.accountId,
      jobId: scope.jobId,
      subjectId: scope.subjectId,
      priceSheetId: sheet.id,
      email: input.email,
      currency: sheet.currency,
      subtotal: p.subtotal,
      discount: p.discount,
      tax: p.tax,
      shippingAmount: p.shipping,
      total: p.total,
      fee: p.fee,
      labCost: p.labCost,
      promoCode: promo?.code ?? null,
      shipping: { option_id: p.option.id, type: p.option.type, name: p.option.name, ...(p.option.type === "school" ? { batch_date: p.option.batch_date } : { address: input.address as Record<string, string> }) },
      stripeAccountId: stripeAccount,
    });
    await tx.insert(orderItems).values(
      p.lines.map((l, position) => ({
        id: newId("oit"),
        orderId,
        accountId: scope.accountId,
        position,
        photoId: l.photo_id,
        kind: l.kind,
        refId: l.refId,
        name: l.name,
        quantity: l.quantity,
        unitPrice: l.unitPrice,
        unitLabCost: l.unitLabCost,
        lineTotal: l.lineTotal,
        crop: l.crop ?? null,
        backgroundId: l.background_id ?? null,
        yearbookPose: l.yearbook_pose,
        digital: l.digital,
      })),
    );
    return p;
  });
  if (priced.total === 0) return completeFreeOrder(db, orderId, scope.accountId, sheet.currency);
  const payTo = stripeAccount ?? cannotTakePayments();

  let session: Stripe.Checkout.Session;
  try {
    session = await viaStripe("open the payment page", () =>
      stripe().checkout.sessions.create(
        {
          mode: "payment",
          customer_email: input.email,
          client_reference_id: orderId,
          line_items: stripeLines(priced, sheet.currency, orderId),
          metadata: { order_id: orderId, account_id: scope.accountId },
          payment_intent_data: { metadata: { order_id: orderId }, ...(priced.fee > 0 ? { application_fee_amount: priced.fee } : {}) },
          success_url: `${orderStatusUrl(orderId)}?paid=1`,
          cancel_url: `${orderStatusUrl(orderId)}?canceled=1`,
        },
        { stripeAccount: payTo, idempotencyKey: `order-checkout-${orderId}` },
      ),
    );
  } catch (err) {
    await abandonOrder(db, orderId, input.promo_code ? sheet.id : null, input.promo_code ?? null);
    throw err;
  }
  if (!session.url) throw new Error(`Stripe returned checkout session ${session.id} without a URL`);
  await db.update(orders).set({ stripeSessionId: session.id }).where(eq(orders.id, orderId));
  return { order_id: orderId, checkout_url: session.url, total: priced.total, currency: sheet.currency };
}

/**
 * A cart a promo made free (total 0): Stripe takes no zero payment, and there is
 * nothing to verify, so the order is paid here at once (receipt, `order.paid`)
 * and the parent goes straight to its status page.
 */
async function completeFreeOrder(db: Db, orderId: string, accountId: string, currency: string) {
  const mail = await db.transaction(async (tx) => {
    const [order] = await tx.select().from(orders).where(and(eq(orders.id, orderId), eq(orders.status, "pending"))).for("update");
    return order ? settlePaid(tx, order, { paymentIntentId: null, sessionId: null }) : null;
  });
  if (mail) await sendQueuedMail(db, mail);
  return { order_id: orderId, checkout_url: `${orderStatusUrl(orderId)}?paid=1`, total: 0, currency };
}

/**
 * Stripe's lines add up to the order's total: the items with tax and shipping as
 * their own lines, or (with a discount, which Checkout cannot show as a negative
 * line here) one line for the order.
 */
function stripeLines(p: Priced, currency: string, orderId: string): Stripe.Checkout.SessionCreateParams.LineItem[] {
  const line = (name: string, amount: number, quantity = 1) => ({ quantity, price_data: { currency, unit_amount: amount, product_data: { name } } });
  if (p.discount > 0) return [line(`Order ${orderId}`, p.total)];
  return [...p.lines.map((l) => line(l.name, l.unitPrice, l.quantity)), ...(p.tax > 0 ? [line("Tax", p.tax)] : []), ...(p.shipping > 0 ? [line(`Shipping: ${p.option.name}`, p.shipping)] : [])];
}

/** Digital files (alone or in a package) are sold only when the studio's gallery settings turn downloads on. */
async function assertDigitalSold(db: Db, accountId: string, sheet: { items: SheetItem[]; packages: SheetPackage[] }, input: CheckoutInput) {
  const digital = new Set(sheet.items.filter((i) => i.kind === "digital").map((i) => i.id));
  const digitalPackages = new Set(sheet.packages.filter((p) => p.items.some((i) => digital.has(i.item_id))).map((p) => p.id));
  const n = input.lines.findIndex((l) => (l.item_id && digital.has(l.item_id)) || (l.package_id && digitalPackages.has(l.package_id)));
  if (n < 0) return;
  const [settings] = await db.select({ on: gallerySettings.downloadsEnabled }).from(gallerySettings).where(eq(gallerySettings.accountId, accountId));
  if (!settings?.on) throw invalidField(`lines.${n}.${input.lines[n]!.item_id ? "item_id" : "package_id"}`, "This studio does not sell digital files from its galleries.");
}

/** Stripe refused the session: the order is canceled and its promo use given back. */
async function abandonOrder(db: Db, orderId: string, sheetId: string | null, code: string | null) {
  await db.transaction(async (tx) => {
    await tx.update(orders).set({ status: "canceled", canceledAt: new Date() }).where(and(eq(orders.id, orderId), eq(orders.status, "pending")));
    if (sheetId && code) await tx.update(promoCodes).set({ uses: sql`greatest(${promoCodes.uses} - 1, 0)` }).where(and(eq(promoCodes.priceSheetId, sheetId), eq(promoCodes.code, code)));
  });
}

/** Which of the backgrounds the cart names the studio keeps (read in the checkout's transaction). */
async function chosenBackgrounds(db: Db, accountId: string, input: CheckoutInput): Promise<Set<string>> {
  const ids = [...new Set(input.lines.map((l) => l.background_id).filter((b): b is string => !!b))];
  if (ids.length === 0) return new Set();
  const rows = await db.select({ id: studioBackgrounds.id }).from(studioBackgrounds).where(and(eq(studioBackgrounds.accountId, accountId), inArray(studioBackgrounds.id, ids)));
  return new Set(rows.map((r) => r.id));
}
