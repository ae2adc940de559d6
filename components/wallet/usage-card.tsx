"use client";

import { useQuery } from "@tanstack/react-query";
import { Card } from "@/components/ui/card";
import { apiFetch } from "@/lib/client/api-fetch";
import { formatTokens } from "./format";
import { QueryError } from "@/components/ui/query-error";
import type { UsageDay } from "./types";
import { UsageChart } from "./usage-chart";

const DAYS = 30;

/** Token use over the last 30 days (GET /v1/wallet/usage). */
export function UsageCard({ className = "" }: { className?: string }) {
  const { data, error, isPending, refetch } = useQuery({
    queryKey: ["wallet", "usage", DAYS],
    queryFn: () => apiFetch<{ data: UsageDay[] }>(`/v1/wallet/usage?days=${DAYS}`),
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
