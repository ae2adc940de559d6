"use client";

import Link from "next/link";
import { useState } from "react";
import { Card } from "@/components/ui/card";
import { ApiKeysCard } from "./api-keys-card";
import { CreateApiKeyForm } from "./create-api-key-form";
import { NewApiKeyPanel } from "./new-api-key-panel";
import type { CreatedApiKey } from "./types";

export function ApiKeysManager() {
  const [created, setCreated] = useState<CreatedApiKey | null>(null);

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">API keys</h1>
        <p className="mt-1 max-w-2xl text-sm text-slate-600">
          Keys let your own software call the Print Studio API as you. Send a key as <code className="font-mono text-xs">Authorization: Bearer &lt;key&gt;</code>; usage is billed to
          your wallet. See <Link href="/account" className="text-brand-600 hover:underline">Account</Link> for examples, and the{" "}
          <a href="/docs" className="text-brand-600 hover:underline">
            API reference
          </a>{" "}
          (every endpoint, with try-it-out) built from{" "}
          <a href="/v1/openapi.json" className="font-mono text-xs text-brand-600 hover:underline">
            /v1/openapi.json
          </a>
          .
        </p>
      </div>
      {created ? <NewApiKeyPanel apiKey={created} onDismiss={() => setCreated(null)} /> : null}
      <Card title="Create a key">
        <CreateApiKeyForm onCreated={setCreated} />
      </Card>
      <ApiKeysCard />
    </div>
  );
}
