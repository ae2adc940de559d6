"use client";

import { useEffect, useRef } from "react";
import { Button } from "@/components/ui/button";
import { CopyButton } from "./copy-button";
import type { CreatedApiKey } from "./types";

/** Shows a freshly created key once; it cannot be retrieved again. */
export function NewApiKeyPanel({ apiKey, onDismiss }: { apiKey: CreatedApiKey; onDismiss: () => void }) {
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, [apiKey.id]);

  return (
    <section
      ref={ref}
      tabIndex={-1}
      aria-labelledby="new-api-key-title"
      className="space-y-3 rounded-lg border border-emerald-200 bg-emerald-50 p-5 focus:outline-none"
    >
      <h2 id="new-api-key-title" className="text-base font-semibold text-emerald-900">
        API key “{apiKey.name}” created
      </h2>
      <p className="text-sm text-emerald-900">
        <strong>Copy this key now. It will not be shown again.</strong> Store it somewhere safe, such as your server&apos;s secret manager. If you lose it, revoke it and create a new one.
      </p>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
        <code
          data-testid="new-api-key"
          className="block flex-1 select-all break-all rounded-md border border-emerald-200 bg-white px-3 py-2 font-mono text-sm text-slate-900"
        >
          {apiKey.key}
        </code>
        <CopyButton text={apiKey.key} label="Copy key" />
      </div>
      <div className="flex justify-end">
        <Button type="button" variant="secondary" onClick={onDismiss}>
          I&apos;ve saved the key
        </Button>
      </div>
    </section>
  );
}
