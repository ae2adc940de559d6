import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getDb } from "@/lib/foundation/db/client";
import { ApiError } from "@/lib/foundation/http/api-error";
import { orderIdFromToken } from "@/lib/services/orders/order-link";
import { loadOrder, type PublicOrder } from "@/lib/services/orders/present-order";
import { formatMoney } from "@/lib/services/orders/money";
import { orderDownloads } from "@/lib/services/orders/download-links";
import { signPreviewUrl } from "@/lib/services/galleries/preview-urls";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Your order", robots: { index: false, follow: false } };

const STEPS = [
  ["paid", "Paid"],
  ["in_production", "In production"],
  ["shipped", "Shipped"],
  ["delivered", "Delivered"],
] as const;

/** The parent's order status page, from the signed link in the receipt: phone first, this order only. */
export default async function OrderStatusPage({ params, searchParams }: { params: Promise<{ token: string }>; searchParams: Promise<Record<string, string | undefined>> }) {
  const { token } = await params;
  const query = await searchParams;
  const orderId = orderIdFromToken(decodeURIComponent(token));
  if (!orderId) notFound();
  let order: PublicOrder;
  const db = await getDb();
  try {
    order = await loadOrder(db, null, orderId);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) notFound();
    throw err;
  }
  const money = (n: number) => formatMoney(n, order.currency);
  // Fresh signed links on every visit: the page is where a parent finds downloads after the e-mail's expire.
  const downloads = new Map((await orderDownloads(db, order.id)).map((d) => [d.item_id, d.url]));
  const reached = STEPS.findIndex(([s]) => s === order.status);
  // Parcels with tracking: an order printed in two batches left in two.
  const parcels = order.shipments.filter((p) => p.tracking_number);
  return (
    <main className="mx-auto max-w-lg space-y-5 px-4 py-6 text-slate-900">
      <header>
        <p className="text-sm text-slate-500">Order {order.id}</p>
        <h1 className="text-2xl font-semibold">
          {order.status === "pending" ? (query.canceled ? "Payment not finished" : "Waiting for payment") : order.status === "canceled" ? "Canceled" : order.status === "refunded" ? "Refunded" : "Thank you!"}
        </h1>
        {order.status === "pending" && query.paid ? <p className="mt-1 text-sm text-slate-600">Your payment is being confirmed; this page updates when you reload it.</p> : null}
      </header>
      {reached >= 0 ? (
        <ol aria-label="Progress" className="grid grid-cols-4 gap-1 text-center text-xs">
          {STEPS.map(([s, label], i) => (
            <li key={s} className={`rounded px-1 py-2 ${i <= reached ? "bg-emerald-100 font-medium text-emerald-900" : "bg-slate-100 text-slate-500"}`}>
              {label}
            </li>
          ))}
        </ol>
      ) : null}
      {parcels.length > 1 || (parcels.length === 1 && order.status === "in_production") ? (
        <div className="rounded-md bg-slate-50 p-3 text-sm" data-testid="order-parcels">
          <p>{order.status === "in_production" ? "Part of your order is on its way; the rest follows." : `Your order was sent in ${parcels.length} parcels.`}</p>
          <ul className="mt-1 space-y-0.5">
            {parcels.map((p, i) => (
              <li key={`${p.shipped_at}-${i}`}>
                Parcel {i + 1}, {new Date(p.shipped_at).toLocaleDateString("en-US", { dateStyle: "medium", timeZone: "UTC" })}: {p.carrier ? `${p.carrier} ` : ""}
                <span className="font-mono">{p.tracking_number}</span>
              </li>
            ))}
          </ul>
        </div>
      ) : order.tracking_number ? (
        <p className="rounded-md bg-slate-50 p-3 text-sm">
          Tracking: {order.carrier ? `${order.carrier} ` : ""}
          <span className="font-mono">{order.tracking_number}</span>
        </p>
      ) : null}
      <ul className="divide-y divide-slate-200 rounded-md border border-slate-200">
        {order.items.map((item) => (
          <li key={item.id} className="flex items-center gap-3 p-3">
            {order.subject_id ? (
              // eslint-disable-next-line @next/next/no-img-element -- a signed, per-child preview URL, not a static asset
              <img src={signPreviewUrl(item.photo_id, order.subject_id)} alt="" className="h-16 w-16 flex-none rounded object-cover" loading="lazy" />
            ) : null}
            <div className="min-w-0 flex-1">
              <p className="font-medium">
                {item.quantity} × {item.name}
              </p>
              {item.refunded_amount > 0 ? <p className="text-sm text-amber-700">Refunded {money(item.refunded_amount)}</p> : null}
              {downloads.has(item.id) ? (
                <a href={downloads.get(item.id)} download className="text-sm text-sky-700 underline">
                  Download full resolution
                </a>
              ) : null}
            </div>
            <p className="text-right tabular-nums">{money(item.line_total)}</p>
          </li>
        ))}
      </ul>
      <dl className="grid grid-cols-2 gap-y-1 text-sm">
        {order.discount ? (
          <>
            <dt>Discount ({order.promo_code})</dt>
            <dd className="text-right tabular-nums">-{money(order.discount)}</dd>
          </>
        ) : null}
        {order.tax ? (
          <>
            <dt>Tax</dt>
            <dd className="text-right tabular-nums">{money(order.tax)}</dd>
          </>
        ) : null}
        <dt>{order.shipping.name}</dt>
        <dd className="text-right tabular-nums">{money(order.shipping_amount)}</dd>
        <dt className="font-semibold">Total</dt>
        <dd className="text-right font-semibold tabular-nums">{money(order.total)}</dd>
        {order.refunded_amount ? (
          <>
            <dt>Refunded</dt>
            <dd className="text-right tabular-nums">{money(order.refunded_amount)}</dd>
          </>
        ) : null}
      </dl>
      <p className="text-xs text-slate-500">{order.shipping.type === "school" ? `Delivered to the school with the class's orders${order.shipping.batch_date ? ` (batch of ${order.shipping.batch_date})` : ""}.` : "Sent to the address you gave."}</p>
    </main>
  );
}
