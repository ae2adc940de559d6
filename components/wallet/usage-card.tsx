"use client";

import { useQuery } from "@tanstack/react-query";
import { Card } from "@/components/ui/card";
import { studioApi, unwrap } from "@/lib/client/typed-api";
import { formatTokens } from "./format";
import { QueryError } from "@/components/ui/query-error";
import { UsageChart } from "./usage-chart";

const DAYS = 30;

/** Token use over the last 30 days (GET /v1/wallet/usage). */
export function UsageCard({ className = "" }: { className?: string }) {
  const { data, error, isPending, refetch } = useQuery({
    queryKey: ["wallet", "usage", DAYS],
    queryFn: async () => unwrap(await studioApi.GET("/v1/wallet/usage", { params: { query: { days: String(DAYS) } } })),
  });
  const total = data?.data.reduce((sum, d) => sum + d.spent, 0) ?? 0;

  return (
    <Card
      className={className}
      title={`Token use, last ${DAYS} days`}
      actions={data && total > 0 ? <span className="text-sm text-slate-500">{formatTokens(total)} tokens spent</span> : undefined}
    >
      {isPending ? (
        <div role="status" className="h-40 animate-pulse rounded-md bg-slate-100">
          <span className="sr-only">Loading usage…</span>
        </div>
      ) : error ? (
        <QueryError title="Could not load usage." error={error} onRetry={() => void refetch()} />
      ) : (
        <UsageChart days={data.data} />
      )}
    </Card>
  );
}
