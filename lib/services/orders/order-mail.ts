import type { MailMessage } from "@/lib/domain/mail/message";
import { formatMoney } from "./money";
import type { PublicOrder } from "./present-order";

/** One parcel's tracking as the studio gives it. */
export type Parcel = { tracking_number?: string; carrier?: string };

// The parent's messages: from the studio they bought from, with the order's lines
// and the signed link to its status page. HTML is built from escaped text.

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** A digital line's full-resolution download (lib/services/orders/download-links.ts). */
export type DownloadLink = { name: string; url: string };

function compose(order: PublicOrder, studio: string, subject: string, intro: string, statusUrl: string, downloads: DownloadLink[] = []): MailMessage {
  const money = (n: number) => formatMoney(n, order.currency);
  const lines = order.items.map((i) => `${i.quantity} × ${i.name}: ${money(i.line_total)}`);
  const totals = [
    order.discount ? `Discount (${order.promo_code}): -${money(order.discount)}` : null,
    order.tax ? `Tax: ${money(order.tax)}` : null,
    `Shipping (${order.shipping.name}): ${money(order.shipping_amount)}`,
    `Total: ${money(order.total)}`,
  ].filter((l): l is string => l !== null);
  const get = downloads.length ? `Your full-resolution downloads (each link works for 7 days; the order page always has fresh ones):\n${downloads.map((d) => `${d.name}: ${d.url}`).join("\n")}` : null;
  const text = [intro, lines.join("\n"), totals.join("\n"), get, `See your order at any time:\n${statusUrl}`, `-- \n${studio}`].filter((p): p is string => p !== null).join("\n\n") + "\n";
  const html = [
    `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5;color:#111">`,
    `<p>${escapeHtml(intro)}</p>`,
    `<ul>${lines.map((l) => `<li>${escapeHtml(l)}</li>`).join("")}</ul>`,
    `<p>${totals.map(escapeHtml).join("<br>")}</p>`,
    downloads.length ? `<p>Your full-resolution downloads (each link works for 7 days):</p><ul>${downloads.map((d) => `<li><a href="${escapeHtml(d.url)}">${escapeHtml(d.name)}</a></li>`).join("")}</ul>` : "",
    `<p><a href="${escapeHtml(statusUrl)}">See your order</a><br><span style="color:#555;font-size:12px">${escapeHtml(statusUrl)}</span></p>`,
    `<p style="color:#555">${escapeHtml(studio)}</p>`,
    `</body></html>`,
  ].join("\n");
  return { to: order.email, subject: `${subject} · ${studio}`, text, html };
}

export function receiptMail(order: PublicOrder, studio: string, statusUrl: string, downloads: DownloadLink[] = []): MailMessage {
  return compose(order, studio, `Receipt for your order ${order.id}`, `Thank you for your order from ${studio}. Your payment of ${formatMoney(order.total, order.currency)} was received.`, statusUrl, downloads);
}

/** The studio sends the download links again (lost e-mail, expired links). */
export function downloadsMail(order: PublicOrder, studio: string, statusUrl: string, downloads: DownloadLink[]): MailMessage {
  return compose(order, studio, `Your downloads for order ${order.id}`, `${studio} sent you fresh download links for your order.`, statusUrl, downloads);
}

const tracked = (p: { carrier: string | null; tracking_number: string | null }) => `${p.carrier ? `${p.carrier} ` : ""}${p.tracking_number}`;

/** The parcels' tracking: one, or each of an order that left in several. */
function trackingSentence(order: PublicOrder): string {
  const parcels = order.shipments.filter((s) => s.tracking_number);
  if (parcels.length > 1) return `It was sent in ${parcels.length} parcels. Tracking: ${parcels.map(tracked).join(", ")}.`;
  return order.tracking_number ? `Tracking: ${tracked(order)}.` : "";
}

export function shippedMail(order: PublicOrder, studio: string, statusUrl: string): MailMessage {
  const how = order.shipping.type === "school" ? "It goes to the school with the class's orders." : trackingSentence(order);
  return compose(order, studio, `Your order ${order.id} has shipped`, `Your order from ${studio} is on its way. ${how}`.trim(), statusUrl);
}

/**
 * Part of the order left (a lab batch shipped what it had; the rest waits for a file being
 * fixed): the parcel's tracking and the lines still to come, so the parent is not left
 * wondering why only some prints arrived. The order's own shipped e-mail follows with every parcel.
 */
export function partShippedMail(order: PublicOrder, studio: string, statusUrl: string, parcel: Parcel, waitingItemIds: ReadonlySet<string>): MailMessage {
  const how = order.shipping.type === "school" ? "It goes to the school with the class's orders." : parcel.tracking_number ? `Tracking: ${tracked({ carrier: parcel.carrier ?? null, tracking_number: parcel.tracking_number })}.` : "";
  const waiting = order.items.filter((i) => waitingItemIds.has(i.id)).map((i) => `${i.quantity} × ${i.name}`);
  const rest = waiting.length ? `Still being made: ${waiting.join(", ")}. It follows on its own, and we will e-mail you when it ships.` : "";
  return compose(order, studio, `Part of your order ${order.id} has shipped`, [`Part of your order from ${studio} is on its way.`, how, rest].filter(Boolean).join(" "), statusUrl);
}

export function refundMail(order: PublicOrder, studio: string, amount: number, statusUrl: string): MailMessage {
  return compose(order, studio, `Refund for your order ${order.id}`, `${studio} refunded ${formatMoney(amount, order.currency)} of your order to your card.`, statusUrl);
}
