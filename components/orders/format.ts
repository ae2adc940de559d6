export { formatMoney } from "@/lib/services/orders/money";

const LABELS: Record<string, string> = { pending: "Awaiting payment", paid: "Paid", in_production: "In production", shipped: "Shipped", delivered: "Delivered", canceled: "Canceled", refunded: "Refunded" };
export const statusLabel = (s: string) => LABELS[s] ?? s;

/** The currency's minor-unit digits (2 for usd, 0 for jpy). */
const digitsOf = (currency: string) => new Intl.NumberFormat("en-US", { style: "currency", currency: currency.toUpperCase() }).resolvedOptions().maximumFractionDigits ?? 2;
/** "19.99" in the editor ↔ 1999 minor units in the API. */
export const toMinor = (value: string, currency: string) => Math.round(Number(value || "0") * 10 ** digitsOf(currency));
export const fromMinor = (minor: number, currency: string) => (minor / 10 ** digitsOf(currency)).toFixed(digitsOf(currency));
