"use client";

import { CodeBlock } from "@/components/account/code-block";
import { useOrigin } from "@/components/account/use-origin";
import { Card } from "@/components/ui/card";

/** How servers reach the core API with the dashboard admin's credentials. */
export function BasicAuthCard({ email, studioId }: { email: string; studioId?: string }) {
  const origin = useOrigin();
  const host = origin.replace(/^https?:\/\//, "");
  const scheme = origin.startsWith("https") ? "https" : "http";
  return (
    <Card title="Server-side access (HTTP Basic)">
      <p className="mb-4 max-w-3xl text-sm text-slate-600">
        The core API (products, projects) also accepts this account&apos;s email and password with HTTP Basic, from servers only: never put them in public
        code. Ten wrong passwords lock the email for 15 minutes, for Basic and for sign-in alike; API keys and access tokens are not affected, so prefer them
        for long-running integrations. Basic acts with your own role in the studio, for your own studio unless an{" "}
        <code className="font-mono text-xs">X-Studio-Id</code> header names another one you belong to.
      </p>
      <CodeBlock
        label="curl"
        code={`curl -u '${email}:YOUR_PASSWORD'${studioId ? ` -H 'X-Studio-Id: ${studioId}'` : ""} ${origin}/v1/products\n# or, as URL userinfo (the @ of the email written %40):\ncurl '${scheme}://${encodeURIComponent(email)}:YOUR_PASSWORD@${host}/v1/projects?status=submitted'`}
      />
    </Card>
  );
}
