"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { QueryError } from "@/components/ui/query-error";
import { studioApi, unwrap, type ApiResponse } from "@/lib/client/typed-api";
import { errorMessage } from "@/components/agencies/api-errors";
import { formatTokens } from "./format";

export const autoTopUpQueryKey = ["billing", "auto-top-up"] as const;

/**
 * Auto top-up (GET/PUT /v1/billing/auto-top-up): under the threshold, the saved card
 * buys the chosen pack, one charge at a time. Says which card, and why it last
 * turned itself off.
 */
export function AutoTopUpCard() {
  const settings = useQuery({ queryKey: autoTopUpQueryKey, queryFn: async () => unwrap(await studioApi.GET("/v1/billing/auto-top-up")) });
  const packs = useQuery({ queryKey: ["billing", "packs"], queryFn: async () => unwrap(await studioApi.GET("/v1/billing/packs")) });
  if (settings.error) return <QueryError title="Could not load auto top-up." error={settings.error} onRetry={() => void settings.refetch()} />;
  if (!settings.data || !packs.data) return <p className="text-sm text-slate-500">Loading…</p>;
  // The form starts from what is saved (and starts again when that changes).
  return <AutoTopUpForm key={JSON.stringify(settings.data)} saved={settings.data} packs={packs.data.packs} />;
}

type Saved = ApiResponse<"/v1/billing/auto-top-up", "get">;
type Pack = ApiResponse<"/v1/billing/packs", "get">["packs"][number];

function AutoTopUpForm({ saved: s, packs }: { saved: Saved; packs: Pack[] }) {
  const queryClient = useQueryClient();
  const [enabled, setEnabled] = useState(s.enabled);
  const [threshold, setThreshold] = useState(String(s.threshold || 500));
  const [pack, setPack] = useState(s.pack ?? packs[0]?.id ?? "");
  const [thresholdError, setThresholdError] = useState<string>();
  // An empty box is not 0 (Number("") would be): it is refused before anything is sent.
  const typed = threshold.trim() === "" ? Number.NaN : Number(threshold);
  const save = useMutation({
    mutationFn: async () => unwrap(await studioApi.PUT("/v1/billing/auto-top-up", { body: { enabled, threshold: Number.isInteger(typed) ? typed : s.threshold, pack } })),
    onSuccess: (data) => queryClient.setQueryData(autoTopUpQueryKey, data),
  });
  return (
    <form
      className="space-y-3"
      onSubmit={(e) => {
        e.preventDefault();
        if (enabled && !(Number.isInteger(typed) && typed >= 0)) {
          setThresholdError("Type the balance, in whole tokens, under which a pack is bought.");
          return;
        }
        setThresholdError(undefined);
        save.mutate();
      }}
    >
      {s.last_failure && !s.enabled ? (
        <p role="alert" data-testid="auto-top-up-failure" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          Auto top-up turned itself off on {new Date(s.last_failure.at).toLocaleString()}: {s.last_failure.message}
        </p>
      ) : null}
      <p className="text-sm text-slate-700">{s.card ? <>Saved card: <strong>{s.card.label}</strong></> : <>No saved card yet: buy a pack above with &ldquo;Save this card for auto top-up&rdquo; ticked.</>}</p>
      <label className="flex items-center gap-2 text-sm text-slate-800">
        <input type="checkbox" checked={enabled} disabled={!s.card} onChange={(e) => setEnabled(e.target.checked)} />
        Top up automatically
      </label>
      <div className="flex flex-wrap items-end gap-3">
        <label className="text-sm text-slate-700">
          When the balance falls under
          <input
            type="number"
            min={0}
            step={50}
            className="ml-2 w-28 rounded-md border border-slate-300 px-2 py-1 text-sm"
            value={threshold}
            onChange={(e) => setThreshold(e.target.value)}
            aria-label="Threshold in tokens"
            aria-invalid={thresholdError ? true : undefined}
            aria-describedby={thresholdError ? "threshold-error" : undefined}
          />{" "}
          tokens, buy
        </label>
        <select aria-label="Pack to buy" className="rounded-md border border-slate-300 px-2 py-1 text-sm" value={pack} onChange={(e) => setPack(e.target.value)}>
          {packs.map((p) => (
            <option key={p.id} value={p.id}>
              {formatTokens(p.tokens)} tokens
            </option>
          ))}
        </select>
        <Button type="submit" variant="secondary" disabled={save.isPending || !s.card}>
          {save.isPending ? "Saving…" : "Save"}
        </Button>
      </div>
      {thresholdError ? (
        <p id="threshold-error" role="alert" className="text-sm text-red-700">
          {thresholdError}
        </p>
      ) : null}
      {s.in_flight ? <p className="text-sm text-slate-600">A top-up is being charged now.</p> : null}
      <p role="status" data-testid="auto-top-up-state" className="text-sm text-slate-700">
        {s.enabled ? `Auto top-up is on: under ${formatTokens(s.threshold)} tokens, the saved card buys ${formatTokens(packs.find((p) => p.id === s.pack)?.tokens ?? 0)} tokens.` : "Auto top-up is off."}
      </p>
      {save.error ? <p className="text-sm text-red-700">{errorMessage(save.error)}</p> : null}
      <p className="text-xs text-slate-500">One charge at a time, however many operations run at once. If the card is declined or its bank asks for confirmation, auto top-up turns off and the owners are emailed.</p>
    </form>
  );
}
