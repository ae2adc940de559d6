import type Stripe from "stripe";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { billingAutoTopUpAttempts, billingCheckouts, walletTransactions } from "@/lib/foundation/db/schema";
import { ApiError, notFound } from "@/lib/foundation/http/api-error";
import { stripe, viaStripe } from "./stripe-client";

const noReceipt = () => new ApiError(404, "NO_RECEIPT", "This ledger entry was not paid by card, so there is no receipt for it.");

/**
 * Stripe's own receipt for a ledger row paid by card: the charge's receipt page for a
 * token pack, the hosted invoice for a month of Premium. Asked of Stripe when wanted
 * rather than stored, so it is always the page Stripe serves now (refunds included).
 */
export async function receiptFor(db: Db, accountId: string, transactionId: string): Promise<{ transaction_id: string; receipt_url: string }> {
  const [row] = await db
    .select({ operation: walletTransactions.operation, reference: walletTransactions.reference })
    .from(walletTransactions)
    .where(and(eq(walletTransactions.id, transactionId), eq(walletTransactions.accountId, accountId)));
  if (!row) throw notFound("Transaction");
  let url: string | null | undefined;
  if (row.operation === "token_pack" && row.reference) {
    const [checkout] = await db.select({ paymentIntentId: billingCheckouts.paymentIntentId }).from(billingCheckouts).where(and(eq(billingCheckouts.id, row.reference), eq(billingCheckouts.accountId, accountId)));
    if (!checkout?.paymentIntentId) throw noReceipt();
    const intent = await viaStripe("find the receipt", () => stripe().paymentIntents.retrieve(checkout.paymentIntentId!, { expand: ["latest_charge"] }));
    url = (intent.latest_charge as Stripe.Charge | null)?.receipt_url;
  } else if (row.operation === "auto_top_up" && row.reference) {
    const [attempt] = await db
      .select({ paymentIntentId: billingAutoTopUpAttempts.paymentIntentId })
      .from(billingAutoTopUpAttempts)
      .where(and(eq(billingAutoTopUpAttempts.id, row.reference), eq(billingAutoTopUpAttempts.accountId, accountId)));
    if (!attempt?.paymentIntentId) throw noReceipt();
    const intent = await viaStripe("find the receipt", () => stripe().paymentIntents.retrieve(attempt.paymentIntentId!, { expand: ["latest_charge"] }));
    url = (intent.latest_charge as Stripe.Charge | null)?.receipt_url;
  } else if (row.operation === "premium_allowance" && row.reference) {
    const invoice = await viaStripe("find the invoice", () => stripe().invoices.retrieve(row.reference!));
    url = invoice.hosted_invoice_url;
  }
  if (!url) throw noReceipt();
  return { transaction_id: transactionId, receipt_url: url };
}
