"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { CodeBlock } from "@/components/account/code-block";
import { useOrigin } from "@/components/account/use-origin";
import { CopyButton } from "@/components/api-keys/copy-button";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { QueryError } from "@/components/ui/query-error";
import { studioApi, unwrap } from "@/lib/client/typed-api";

const queryKey = ["core", "unauth-token"] as const;

/** The account's unauth token for storefront code: shown, copied, rotated (the old one stops at once). */
export function UnauthTokenCard({ canRotate }: { canRotate: boolean }) {
  const queryClient = useQueryClient();
  const origin = useOrigin();
  const { data, error, isPending, refetch } = useQuery({ queryKey, queryFn: async () => unwrap(await studioApi.GET("/v1/account/unauth-token")) });
  const [confirming, setConfirming] = useState(false);
  const [rotatedAt, setRotatedAt] = useState<Date>();
  const rotate = useMutation({
    mutationFn: async () => unwrap(await studioApi.POST("/v1/account/unauth-token/rotate", { body: {} })),
    onSuccess: (res) => {
      queryClient.setQueryData(queryKey, res);
      setConfirming(false);
      setRotatedAt(new Date());
    },
  });

  return (
    <Card title="Unauth token (public storefront access)">
      <p className="mb-4 max-w-3xl text-sm text-slate-600">
        Send it as <code className="font-mono text-xs">X-Service-Unauth-Token</code> from public code such as a web shop. It only reads products marked
        public (list and detail); everything else answers 403. It is not a secret in the way a password or API key is, which is why it can be shown here again
        at any time. If it is abused, rotate it: the old token stops working immediately.
      </p>
      {isPending ? (
        <div role="status" className="h-10 animate-pulse rounded bg-slate-100" />
      ) : error || !data ? (
        <QueryError title="Could not load the token." error={error} onRetry={() => void refetch()} />
      ) : (
        <div className="space-y-4">
          <div className="flex flex-wrap items-center gap-3">
            <code data-testid="unauth-token" className="rounded-md border border-slate-200 bg-slate-50 px-3 py-2 font-mono text-sm">
              {data.token}
            </code>
            <CopyButton text={data.token} />
            {confirming ? (
              <span role="group" aria-label="Confirm rotation" className="flex items-center gap-2">
                <span className="text-sm text-slate-700">Storefronts using the old token will stop working.</span>
                <Button type="button" variant="danger" disabled={rotate.isPending} onClick={() => rotate.mutate()}>
                  {rotate.isPending ? "Rotating…" : "Confirm rotate"}
                </Button>
                <Button type="button" variant="secondary" onClick={() => setConfirming(false)}>
                  Cancel
                </Button>
              </span>
            ) : canRotate ? (
              <Button type="button" variant="secondary" onClick={() => setConfirming(true)}>
                Rotate token
              </Button>
            ) : (
              <span className="text-sm text-slate-500">Only the studio&apos;s admins and owner can rotate it.</span>
            )}
          </div>
          {rotatedAt ? (
            <p role="status" className="text-sm text-emerald-700">
              Rotated at {rotatedAt.toLocaleTimeString()}. Update your storefront with the new token.
            </p>
          ) : null}
          {rotate.error ? (
            <p role="alert" className="text-sm text-red-600">
              {rotate.error.message}
            </p>
          ) : null}
          <CodeBlock
            label="Storefront (browser) example"
            code={`const res = await fetch("${origin}/v1/products?status=active&sortBy=name", {\n  headers: { "X-Service-Unauth-Token": "${data.token}" },\n});\nconst { data: products, links } = await res.json();`}
          />
        </div>
      )}
    </Card>
  );
}
