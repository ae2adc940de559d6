"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { Card } from "@/components/ui/card";
import { accountQueryKey, fetchAccount } from "./account-types";
import { CodeBlock } from "./code-block";
import { useOrigin } from "./use-origin";

/** A shell-safe single-quoted JSON body; falls back to a placeholder email if quoting would be awkward. */
function tokenBody(email: string | undefined): string {
  const safe = email && !email.includes("'") ? email : "you@example.com";
  return JSON.stringify({ email: safe, password: "YOUR_PASSWORD" });
}

export function ApiUsageCard() {
  const origin = useOrigin();
  const { data: account } = useQuery({ queryKey: accountQueryKey, queryFn: fetchAccount });

  const getToken = `curl -X POST ${origin}/v1/auth/token \\
  -H "Content-Type: application/json" \\
  -d '${tokenBody(account?.member?.email ?? account?.email)}'

# => {"access_token":"eyJ...","token_type":"Bearer","expires_in":3600}`;

  const getAccount = `ACCESS_TOKEN="eyJ..."   # the access_token from step 1

curl ${origin}/v1/account \\
  -H "Authorization: Bearer $ACCESS_TOKEN"`;

  const withKey = `curl ${origin}/v1/wallet \\
  -H "Authorization: Bearer psk_live_..."`;

  return (
    <Card title="Using the API">
      <div className="space-y-5 text-sm text-slate-700">
        <p>
          The studio uses the same <code className="font-mono text-xs">/v1</code> REST API your own software can call. Every request is authenticated with an{" "}
          <code className="font-mono text-xs">Authorization: Bearer</code> header, and paid operations are billed to this account&apos;s wallet.
        </p>
        <section aria-labelledby="api-step-token" className="space-y-2">
          <h3 id="api-step-token" className="font-medium text-slate-900">
            1. Get an access token
          </h3>
          <p>Exchange your email and password for a short-lived access token (it expires after <code className="font-mono text-xs">expires_in</code> seconds).</p>
          <CodeBlock label="Request an access token" code={getToken} />
        </section>
        <section aria-labelledby="api-step-call" className="space-y-2">
          <h3 id="api-step-call" className="font-medium text-slate-900">
            2. Call the API
          </h3>
          <p>Send the token as a Bearer token on each request.</p>
          <CodeBlock label="Get your account" code={getAccount} />
        </section>
        <section aria-labelledby="api-step-keys" className="space-y-2">
          <h3 id="api-step-keys" className="font-medium text-slate-900">
            Or use an API key
          </h3>
          <p>
            For servers and scripts, create a long-lived key on the{" "}
            <Link href="/api-keys" className="text-brand-600 hover:underline">
              API keys
            </Link>{" "}
            page and send it the same way, as <code className="font-mono text-xs">Authorization: Bearer psk_live_…</code>. Revoked keys stop working on the next request.
          </p>
          <CodeBlock label="Check your balance with an API key" code={withKey} />
          <p className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-amber-900">
            The <code className="font-mono text-xs">X-API-Key</code> header is not accepted: requests that use it are rejected with 401. Always use{" "}
            <code className="font-mono text-xs">Authorization: Bearer</code>.
          </p>
        </section>
      </div>
    </Card>
  );
}
