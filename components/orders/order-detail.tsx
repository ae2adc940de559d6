"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { ListSkeleton } from "@/components/ui/list-states";
import { QueryError } from "@/components/ui/query-error";
import { useActionKey } from "@/lib/client/idempotency-key";
import { studioApi, unwrap } from "@/lib/client/typed-api";
import { formatMoney, statusLabel } from "./format";

/**
 * One order as the studio runs it: its photos and lines, the next status (shipped
 * asks for tracking when it goes home), and refunds per item or of the rest
 * (admins; the API refuses anyone else). `previews` are signed per child on the server.
 */
export function OrderDetail({ id, previews, canChange }: { id: string; previews: Record<string, string>; canChange: boolean }) {
  const queryClient = useQueryClient();
  const queryKey = ["orders", "detail", id];
  const { data: order, error, isPending, refetch } = useQuery({ queryKey, queryFn: async () => unwrap(await studioApi.GET("/v1/orders/{id}", { params: { path: { id } } })) });
  const [tracking, setTracking] = useState("");
  const [carrier, setCarrier] = useState("");
  const refundKey = useActionKey();
  const resendKey = useActionKey();
  const resend = useMutation({
    mutationFn: () => resendKey.run(async (key) => unwrap(await studioApi.POST("/v1/orders/{id}/downloads", { params: { path: { id } }, body: {}, headers: { "idempotency-key": key } }))),
  });
  const done = (o: unknown) => {
    queryClient.setQueryData(queryKey, o);
    void queryClient.invalidateQueries({ queryKey: ["orders", "list"] });
  };
  const move = useMutation({
    mutationFn: async (status: "in_production" | "shipped" | "delivered") =>
      unwrap(await studioApi.PATCH("/v1/orders/{id}", { params: { path: { id } }, body: { status, ...(status === "shipped" && tracking ? { tracking_number: tracking } : {}), ...(status === "shipped" && carrier ? { carrier } : {}) } })),
    onSuccess: done,
  });
  const refund = useMutation({
    mutationFn: (itemId: string | null) =>
      refundKey.run(async (key) => unwrap(await studioApi.POST("/v1/orders/{id}/refunds", { params: { path: { id } }, body: itemId ? { item_id: itemId } : {}, headers: { "idempotency-key": key } }))),
    onSuccess: done,
  });
  if (isPending) return <ListSkeleton label="Loading the order" />;
  if (error || !order) return <QueryError title="Could not load the order." error={error} onRetry={() => void refetch()} />;
  const money = (n: number) => formatMoney(n, order.currency);
  const refundable = ["paid", "in_production", "shipped", "delivered"].includes(order.status) && order.refunded_amount < order.total;
  const next = ({ paid: ["in_production", "shipped"], in_production: ["shipped"], shipped: ["delivered"] } as Record<string, ("in_production" | "shipped" | "delivered")[]>)[order.status] ?? [];
  return (
    <div className="space-y-6">
      <Card title={`${statusLabel(order.status)} · ${money(order.total)}`}>
        <dl className="grid gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
          <dt className="text-slate-500">Parent</dt>
          <dd>{order.email}</dd>
          <dt className="text-slate-500">Shipping</dt>
          <dd>
            {order.shipping.name}
            {order.shipping.address ? ` · ${Object.values(order.shipping.address).join(", ")}` : ""}
            {order.shipping.batch_date ? ` · batch of ${order.shipping.batch_date}` : ""}
          </dd>
          {order.shipments.length > 1 || (order.shipments.length === 1 && order.status === "in_production") ? (
            <>
              <dt className="text-slate-500">Parcels</dt>
              <dd>
                <ul data-testid="order-parcels">
                  {order.shipments.map((p, i) => (
                    <li key={`${p.batch_id}-${p.shipped_at}`}>
                      {i + 1}. {new Date(p.shipped_at).toLocaleDateString()} · {p.tracking_number ? `${p.carrier ?? ""} ${p.tracking_number}`.trim() : "no tracking"}
                      {p.batch_id ? <span className="text-slate-500"> · batch {p.batch_id}</span> : null}
                    </li>
                  ))}
                </ul>
              </dd>
            </>
          ) : order.tracking_number ? (
            <>
              <dt className="text-slate-500">Tracking</dt>
              <dd>
                {order.carrier} {order.tracking_number}
              </dd>
            </>
          ) : null}
          <dt className="text-slate-500">Paid</dt>
          <dd>{order.paid_at ? new Date(order.paid_at).toLocaleString() : "not yet"}</dd>
          <dt className="text-slate-500">Refunded</dt>
          <dd>{money(order.refunded_amount)}</dd>
          {order.disputed ? (
            <>
              <dt className="text-red-700">Disputed</dt>
              <dd className="text-red-700">The parent&apos;s bank disputes this payment: answer it in your Stripe dashboard.</dd>
            </>
          ) : null}
        </dl>
        {canChange && next.length ? (
          <div className="mt-4 flex flex-wrap items-end gap-3">
            {next.includes("shipped") && order.shipping.type === "home" ? (
              <>
                <Field id="tracking" label="Tracking number" value={tracking} onChange={(e) => setTracking(e.target.value)} />
                <Field id="carrier" label="Carrier" value={carrier} onChange={(e) => setCarrier(e.target.value)} />
              </>
            ) : null}
            {next.map((s) => (
              <Button key={s} type="button" variant={s === "shipped" ? "primary" : "secondary"} disabled={move.isPending} onClick={() => move.mutate(s)}>
                Mark {statusLabel(s).toLowerCase()}
              </Button>
            ))}
          </div>
        ) : null}
        {move.error ? <QueryError title="The status did not change." error={move.error} /> : null}
      </Card>
      <Card title="Items">
        <ul className="divide-y divide-slate-100">
          {order.items.map((item) => (
            <li key={item.id} className="flex flex-wrap items-center gap-3 py-3">
              {previews[item.photo_id] ? (
                // eslint-disable-next-line @next/next/no-img-element -- a signed preview URL
                <img src={previews[item.photo_id]} alt={`Photo ${item.photo_id}`} className="h-20 w-20 rounded object-cover" />
              ) : (
                <span className="flex h-20 w-20 items-center justify-center rounded bg-slate-100 text-xs text-slate-500">no preview</span>
              )}
              <div className="min-w-0 flex-1 text-sm">
                <p className="font-medium">
                  {item.quantity} × {item.name}
                  {item.yearbook_pose ? <span className="ml-2 rounded bg-sky-50 px-1.5 text-xs text-sky-800">yearbook pose</span> : null}
                </p>
                <p className="text-slate-500">
                  {money(item.unit_price)} each · lab {money(item.lab_cost)}
                  {item.crop ? ` · crop ${Math.round(item.crop.width * 100)}×${Math.round(item.crop.height * 100)} % at ${Math.round(item.crop.x * 100)},${Math.round(item.crop.y * 100)}` : ""}
                </p>
                {item.refunded_amount ? <p className="text-amber-700">Refunded {money(item.refunded_amount)}</p> : null}
              </div>
              <span className="tabular-nums">{money(item.line_total)}</span>
              {canChange && refundable && item.refunded_amount === 0 ? (
                <Button type="button" variant="secondary" disabled={refund.isPending} onClick={() => refund.mutate(item.id)}>
                  Refund item
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
        {canChange && refundable ? (
          <div className="mt-4">
            <Button type="button" variant="danger" disabled={refund.isPending} onClick={() => refund.mutate(null)}>
              Refund the rest ({money(order.total - order.refunded_amount)})
            </Button>
          </div>
        ) : null}
        {refund.error ? <QueryError title="The refund did not go through." error={refund.error} /> : null}
        {canChange && order.items.some((i) => i.digital) && refundable ? (
          <div className="mt-4 flex flex-wrap items-center gap-3">
            <Button type="button" variant="secondary" disabled={resend.isPending} onClick={() => resend.mutate()}>
              Send download links again
            </Button>
            {resend.data ? (
              <span role="status" className="text-sm text-emerald-700">
                Sent {resend.data.downloads} download link{resend.data.downloads === 1 ? "" : "s"} to {resend.data.email}.
              </span>
            ) : null}
          </div>
        ) : null}
        {resend.error ? <QueryError title="The links were not sent." error={resend.error} /> : null}
      </Card>
    </div>
  );
}
