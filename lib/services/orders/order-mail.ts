import type { MailMessage } from "@/lib/domain/mail/message";
import { formatMoney } from "./money";
import type { PublicOrder } from "./present-order";

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

export function refundMail(order: PublicOrder, studio: string, amount: number, statusUrl: string): MailMessage {
  return compose(order, studio, `Refund for your order ${order.id}`, `${studio} refunded ${formatMoney(amount, order.currency)} of your order to your card.`, statusUrl);
}
