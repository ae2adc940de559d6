"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { EmptyState, ListSkeleton } from "@/components/ui/list-states";
import { QueryError } from "@/components/ui/query-error";
import { ApiRequestError } from "@/lib/client/api-fetch";
import { studioApi, unwrap, type ApiResponse } from "@/lib/client/typed-api";
import { useActionKey } from "@/lib/client/idempotency-key";
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from "@/lib/domain/webhooks/events";

type Endpoint = ApiResponse<"/v1/webhook-endpoints", "get">["data"][number];
type Delivery = ApiResponse<"/v1/webhook-endpoints/{id}/deliveries", "get">["data"][number];

const endpointsKey = ["webhook-endpoints"];

export function WebhooksManager() {
  const [secret, setSecret] = useState<{ url: string; secret: string } | null>(null);
  const endpoints = useQuery({ queryKey: endpointsKey, queryFn: async () => unwrap(await studioApi.GET("/v1/webhook-endpoints", { params: { query: { limit: "100" } } })) });

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">Webhooks</h1>
        <p className="mt-1 max-w-2xl text-sm text-slate-600">
          We POST an event to your URL when a job finishes or fails and when your wallet changes. Requests are signed per{" "}
          <a href="https://www.standardwebhooks.com/" className="text-brand-600 hover:underline">
            Standard Webhooks
          </a>{" "}
          (<code className="font-mono text-xs">webhook-id</code>, <code className="font-mono text-xs">webhook-timestamp</code>,{" "}
          <code className="font-mono text-xs">webhook-signature</code>): verify them with the <code className="font-mono text-xs">standardwebhooks</code> library and your
          endpoint&apos;s secret. Failed attempts are retried for about a day.
        </p>
      </div>
      {secret ? (
        <Card title="Signing secret">
          <p className="text-sm text-slate-700">
            The secret for <span className="font-mono text-xs">{secret.url}</span>. It is shown this once: store it now.
          </p>
          <pre className="mt-2 overflow-x-auto rounded bg-slate-900 p-3 font-mono text-xs text-white" data-testid="webhook-secret">
            {secret.secret}
          </pre>
          <Button variant="secondary" className="mt-3" onClick={() => setSecret(null)}>
            I have stored it
          </Button>
        </Card>
      ) : null}
      <Card title="Add an endpoint">
        <CreateEndpointForm onCreated={(e) => setSecret({ url: e.url, secret: e.secret })} />
      </Card>
      {endpoints.isPending ? (
        <ListSkeleton label="Loading endpoints" />
      ) : endpoints.isError ? (
        <QueryError title="The endpoints could not be loaded" error={endpoints.error} onRetry={() => void endpoints.refetch()} />
      ) : endpoints.data.data.length === 0 ? (
        <EmptyState>No endpoints yet.</EmptyState>
      ) : (
        endpoints.data.data.map((e) => <EndpointCard key={e.id} endpoint={e} onSecret={(s) => setSecret({ url: e.url, secret: s })} />)
      )}
    </div>
  );
}

function CreateEndpointForm({ onCreated }: { onCreated: (e: Endpoint & { secret: string }) => void }) {
  const queryClient = useQueryClient();
  const [url, setUrl] = useState("");
  const [events, setEvents] = useState<WebhookEventType[]>([...WEBHOOK_EVENT_TYPES]);
  const action = useActionKey();
  const create = useMutation({
    mutationFn: (body: { url: string; events: WebhookEventType[] }) =>
      action.run(async (idempotencyKey) => unwrap(await studioApi.POST("/v1/webhook-endpoints", { params: { header: { "Idempotency-Key": idempotencyKey } }, body }))),
    onSuccess: async (e) => {
      setUrl("");
      onCreated(e);
      await queryClient.invalidateQueries({ queryKey: endpointsKey });
    },
  });
  const err = create.error instanceof ApiRequestError ? create.error.message : create.error?.message;

  return (
    <form
      noValidate
      className="space-y-3"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate({ url, events });
      }}
    >
      <Field id="webhook-url" name="url" label="Endpoint URL" placeholder="https://example.com/hooks/print-studio" value={url} onChange={(e) => setUrl(e.target.value)} required />
      <fieldset>
        <legend className="text-sm font-medium text-slate-700">Events</legend>
        <div className="mt-1 grid grid-cols-1 gap-1 sm:grid-cols-2">
          {WEBHOOK_EVENT_TYPES.map((type) => (
            <label key={type} className="flex items-center gap-2 text-sm text-slate-700">
              <input type="checkbox" checked={events.includes(type)} onChange={(e) => setEvents(e.target.checked ? [...events, type] : events.filter((t) => t !== type))} />
              <span className="font-mono text-xs">{type}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <Button type="submit" disabled={create.isPending}>
        {create.isPending ? "Adding…" : "Add endpoint"}
      </Button>
      {err ? (
        <p role="alert" className="text-sm text-red-600">
          {err}
        </p>
      ) : null}
    </form>
  );
}

function EndpointCard({ endpoint, onSecret }: { endpoint: Endpoint; onSecret: (secret: string) => void }) {
  const queryClient = useQueryClient();
  const deliveriesKey = ["webhook-deliveries", endpoint.id];
  const deliveries = useQuery({
    queryKey: deliveriesKey,
    queryFn: async () => unwrap(await studioApi.GET("/v1/webhook-endpoints/{id}/deliveries", { params: { path: { id: endpoint.id }, query: { limit: "20" } } })),
    // Pending deliveries change by themselves: look again while any is pending.
    refetchInterval: (q) => (q.state.data?.data.some((d) => d.status === "pending") ? 2_000 : false),
  });
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: endpointsKey });
    await queryClient.invalidateQueries({ queryKey: deliveriesKey });
  };
  const testKey = useActionKey();
  const sendTest = useMutation({
    mutationFn: () => testKey.run(async (idempotencyKey) => unwrap(await studioApi.POST("/v1/webhook-endpoints/{id}/test", { params: { path: { id: endpoint.id }, header: { "Idempotency-Key": idempotencyKey } } }))),
    onSuccess: refresh,
  });
  const rotate = useMutation({
    mutationFn: async () => unwrap(await studioApi.POST("/v1/webhook-endpoints/{id}/rotate-secret", { params: { path: { id: endpoint.id } } })),
    onSuccess: async (r) => {
      onSecret(r.secret);
      await refresh();
    },
  });
  const toggle = useMutation({
    mutationFn: async (enabled: boolean) => unwrap(await studioApi.PATCH("/v1/webhook-endpoints/{id}", { params: { path: { id: endpoint.id } }, body: { enabled } })),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: async () => unwrap(await studioApi.DELETE("/v1/webhook-endpoints/{id}", { params: { path: { id: endpoint.id } } })),
    onSuccess: refresh,
  });
  const failed = [sendTest, rotate, toggle, remove].find((m) => m.error)?.error;

  return (
    <Card
      title={endpoint.url}
      actions={
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" disabled={!endpoint.enabled || sendTest.isPending} onClick={() => sendTest.mutate()}>
            Send a test event
          </Button>
          <Button variant="secondary" disabled={rotate.isPending} onClick={() => rotate.mutate()}>
            Rotate secret
          </Button>
          <Button variant="secondary" disabled={toggle.isPending} onClick={() => toggle.mutate(!endpoint.enabled)}>
            {endpoint.enabled ? "Disable" : "Enable"}
          </Button>
          <Button variant="danger" disabled={remove.isPending} onClick={() => window.confirm("Delete this endpoint and its deliveries?") && remove.mutate()}>
            Delete
          </Button>
        </div>
      }
    >
      {!endpoint.enabled ? (
        <p role="alert" className="mb-3 rounded border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
          This endpoint is disabled{endpoint.disabled_at ? ` since ${new Date(endpoint.disabled_at).toLocaleString()}` : ""}: {endpoint.disabled_reason ?? "no events are sent to it."}
        </p>
      ) : null}
      <p className="text-xs text-slate-500">
        Events: <span className="font-mono">{endpoint.events.join(", ")}</span>
      </p>
      {failed ? (
        <p role="alert" className="mt-2 text-sm text-red-600">
          {failed.message}
        </p>
      ) : null}
      <h3 className="mt-4 text-sm font-semibold text-slate-800">Recent deliveries</h3>
      {deliveries.isPending ? (
        <ListSkeleton label="Loading deliveries" rows={2} />
      ) : deliveries.isError ? (
        <QueryError title="The deliveries could not be loaded" error={deliveries.error} onRetry={() => void deliveries.refetch()} />
      ) : deliveries.data.data.length === 0 ? (
        <EmptyState>No deliveries yet. Send a test event to try the endpoint.</EmptyState>
      ) : (
        <ul className="mt-2 divide-y divide-slate-100">
          {deliveries.data.data.map((d) => (
            <DeliveryRow key={d.id} endpointId={endpoint.id} delivery={d} canRedeliver={endpoint.enabled} onDone={refresh} />
          ))}
        </ul>
      )}
    </Card>
  );
}

const statusStyle = { pending: "bg-slate-100 text-slate-700", succeeded: "bg-green-100 text-green-800", failed: "bg-red-100 text-red-800" } as const;

function DeliveryRow({ endpointId, delivery, canRedeliver, onDone }: { endpointId: string; delivery: Delivery; canRedeliver: boolean; onDone: () => Promise<void> }) {
  const [open, setOpen] = useState(false);
  const again = useMutation({
    mutationFn: async () => unwrap(await studioApi.POST("/v1/webhook-endpoints/{id}/deliveries/{deliveryId}/redeliver", { params: { path: { id: endpointId, deliveryId: delivery.id } } })),
    onSuccess: onDone,
  });
  return (
    <li className="py-2 text-sm">
      <div className="flex flex-wrap items-center gap-3">
        <span className={`rounded px-2 py-0.5 text-xs font-medium ${statusStyle[delivery.status]}`}>{delivery.status}</span>
        <span className="font-mono text-xs">{delivery.event_type}</span>
        <span className="text-xs text-slate-500">{new Date(delivery.created_at).toLocaleString()}</span>
        <button type="button" className="text-xs text-brand-600 hover:underline" onClick={() => setOpen(!open)}>
          {delivery.attempts.length} {delivery.attempts.length === 1 ? "attempt" : "attempts"}
        </button>
        {delivery.status !== "pending" && canRedeliver ? (
          <Button variant="secondary" className="ml-auto" disabled={again.isPending} onClick={() => again.mutate()}>
            Redeliver
          </Button>
        ) : delivery.next_attempt_at ? (
          <span className="ml-auto text-xs text-slate-500">next attempt {new Date(delivery.next_attempt_at).toLocaleString()}</span>
        ) : null}
      </div>
      {again.error ? <p className="text-xs text-red-600">{again.error.message}</p> : null}
      {open ? (
        <table className="mt-2 w-full text-left text-xs">
          <thead className="text-slate-500">
            <tr>
              <th className="py-1 pr-3">#</th>
              <th className="py-1 pr-3">When</th>
              <th className="py-1 pr-3">Status</th>
              <th className="py-1 pr-3">Duration</th>
              <th className="py-1">Response</th>
            </tr>
          </thead>
          <tbody>
            {delivery.attempts.map((a) => (
              <tr key={a.attempt} className="align-top">
                <td className="py-1 pr-3">{a.attempt}</td>
                <td className="py-1 pr-3">{new Date(a.at).toLocaleTimeString()}</td>
                <td className="py-1 pr-3">{a.status_code ?? "—"}</td>
                <td className="py-1 pr-3">{a.duration_ms} ms</td>
                <td className="py-1 font-mono break-all">{a.error && a.status_code === null ? a.error : (a.response_snippet ?? "")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </li>
  );
}
