"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { studioApi, type ApiResponse } from "@/lib/client/typed-api";

type Entry = ApiResponse<"/v1/operator/outbox", "get">["data"][number];

/**
 * The outbox (mail written to DATA_DIR when SMTP_URL is unset), read through
 * GET /v1/operator/outbox with the operator token: the page itself holds
 * nothing, and without OPERATOR_TOKEN on the server it finds nothing (404).
 * The token is kept in this page's memory only.
 */
export function OutboxViewer() {
  const [token, setToken] = useState("");
  const [entries, setEntries] = useState<Entry[]>();
  const [error, setError] = useState<string>();

  async function load(t: string) {
    setError(undefined);
    const { data, error, response } = await studioApi.GET("/v1/operator/outbox", { params: { query: { limit: "50" } }, headers: { Authorization: `Bearer ${t}` } });
    if (!data) {
      setEntries(undefined);
      const message = (error as { message?: string } | undefined)?.message;
      setError(response.status === 404 ? "Operator endpoints are off on this server (set OPERATOR_TOKEN)." : (message ?? `Request failed (${response.status}).`));
      return;
    }
    setEntries(data.data);
  }

  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold text-slate-900">Outbox</h1>
      <p className="text-sm text-slate-600">
        This server has no SMTP_URL, so the emails it sends (address confirmations, password resets, notices) are kept here instead, newest first. Set SMTP_URL to send them.
      </p>
      <form
        className="flex items-end gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          void load(token);
        }}
      >
        <div className="flex-1">
          <Field id="operator-token" label="Operator token" type="password" value={token} onChange={(e) => setToken(e.target.value)} required />
        </div>
        <Button type="submit">Show messages</Button>
      </form>
      {error ? <p role="alert" className="text-sm text-red-600">{error}</p> : null}
      {entries?.length === 0 ? <p className="text-sm text-slate-600">No messages yet.</p> : null}
      {entries?.map((m) => (
        <Card key={m.id} title={m.subject}>
          <p className="mb-2 text-sm text-slate-600">
            To {m.to} · {new Date(m.created_at).toLocaleString()}
          </p>
          <ul className="mb-3 space-y-1">
            {m.links.map((l) => (
              <li key={l}>
                <a href={l} className="break-all text-sm text-brand-600 hover:underline">{l}</a>
              </li>
            ))}
          </ul>
          <pre className="whitespace-pre-wrap rounded bg-slate-50 p-3 text-xs text-slate-800">{m.text}</pre>
        </Card>
      ))}
    </div>
  );
}
