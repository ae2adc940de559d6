"use client";

import { useQuery } from "@tanstack/react-query";
import { Card } from "@/components/ui/card";
import { QueryError } from "@/components/ui/query-error";
import { studioApi, unwrap } from "@/lib/client/typed-api";

/** This month's cut-outs: the person mattes made for prints with a background and for the storefront's live previews (one engine run each). */
export function UsageCard() {
  const { data, error, refetch } = useQuery({ queryKey: ["production", "usage"], queryFn: async () => unwrap(await studioApi.GET("/v1/production/usage")) });
  return (
    <Card title="Cut-outs this month">
      {error ? <QueryError title="Could not load the usage." error={error} onRetry={() => void refetch()} /> : null}
      {data ? (
        <p className="text-sm text-slate-700" data-testid="production-usage">
          <span className="text-2xl font-semibold text-slate-900">{data.cutouts.total}</span> since {data.from}: {data.cutouts.full} for prints, {data.cutouts.preview} for parents&apos; background previews. Each photo is cut out once per size and kept.
        </p>
      ) : null}
    </Card>
  );
}
