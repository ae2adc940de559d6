"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { ApiRequestError } from "@/lib/client/api-fetch";
import { studioApi, unwrap } from "@/lib/client/typed-api";
import { apiKeysQueryKey, type ApiKey } from "./types";

/** "Revoke" then an inline "Revoke? Yes / Cancel" confirm step. */
export function RevokeApiKeyButton({ apiKey, onRevoked }: { apiKey: ApiKey; onRevoked?: () => void }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const boxRef = useRef<HTMLDivElement>(null);
  const returnFocus = useRef(false);

  const revoke = useMutation({
    mutationFn: async () => unwrap(await studioApi.DELETE("/v1/api-keys/{id}", { params: { path: { id: apiKey.id } } })),
    onSuccess: () => onRevoked?.(),
    onError: (err) => {
      // Already revoked elsewhere: the list is simply out of date.
      if (err instanceof ApiRequestError && err.status === 404) onRevoked?.();
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: apiKeysQueryKey }),
  });

  useEffect(() => {
    // Keep keyboard focus in place as the buttons swap: Cancel when asking, Revoke after cancelling.
    if (confirming) boxRef.current?.querySelector<HTMLButtonElement>("[data-cancel]")?.focus();
    else if (returnFocus.current) boxRef.current?.querySelector<HTMLButtonElement>("button")?.focus();
    returnFocus.current = false;
  }, [confirming]);

  const error = revoke.error && !(revoke.error instanceof ApiRequestError && revoke.error.status === 404) ? revoke.error.message : undefined;

  if (!confirming) {
    return (
      <div ref={boxRef} className="flex justify-end">
        <Button type="button" variant="danger" aria-label={`Revoke ${apiKey.name}`} onClick={() => setConfirming(true)}>
          Revoke
        </Button>
      </div>
    );
  }

  return (
    <div ref={boxRef} className="flex flex-col items-end gap-1">
      <div role="group" aria-label={`Confirm revoking ${apiKey.name}`} className="flex items-center gap-2">
        <span className="text-sm text-slate-700">Revoke?</span>
        <button
          type="button"
          disabled={revoke.isPending}
          onClick={() => revoke.mutate()}
          className="inline-flex items-center justify-center rounded-md bg-red-600 px-3 py-2 text-sm font-medium text-white transition hover:bg-red-700 disabled:cursor-not-allowed disabled:bg-slate-300"
        >
          {revoke.isPending ? "Revoking…" : "Confirm revoke"}
        </button>
        <Button
          data-cancel=""
          type="button"
          variant="secondary"
          disabled={revoke.isPending}
          onClick={() => {
            returnFocus.current = true;
            revoke.reset();
            setConfirming(false);
          }}
        >
          Cancel
        </Button>
      </div>
      {error ? (
        <p role="alert" className="text-xs text-red-600">
          {error}
        </p>
      ) : null}
    </div>
  );
}
