"use client";

import Link from "next/link";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { QueryError } from "@/components/ui/query-error";
import { errorMessage } from "@/components/agencies/api-errors";
import { studioApi, unwrap } from "@/lib/client/typed-api";
import { isRunning, qrSortKeys } from "./types";

/** On the job page: start a QR sort of the job's photos, watch it read, then open its contact sheet. */
export function QrSortPanel({ agencyId, jobId, photoCount }: { agencyId: number; jobId: number; photoCount: number | undefined }) {
  const queryClient = useQueryClient();
  const path = { agencyId: String(agencyId), jobId: String(jobId) };
  const sorts = useQuery({
    queryKey: qrSortKeys.sorts(jobId),
    queryFn: async () => unwrap(await studioApi.GET("/v1/services/studio/agencies/{agencyId}/jobs/{jobId}/qr-sort", { params: { path, query: { limit: "5" } } })),
    // Polled while the newest sort reads its frames, quiet otherwise.
    refetchInterval: (q) => (isRunning(q.state.data?.data[0]) ? 1500 : false),
  });
  const start = useMutation({
    mutationFn: async () => unwrap(await studioApi.POST("/v1/services/studio/agencies/{agencyId}/jobs/{jobId}/qr-sort", { params: { path } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: qrSortKeys.sorts(jobId) }),
  });
  const latest = sorts.data?.data[0];
  const running = isRunning(latest);
  // The newest sort is the one shown (and carries the corrections forward); the earlier ones stay reachable.
  const earlier = sorts.data?.data.slice(1) ?? [];
  return (
    <Card title="Sort by QR cards" actions={<span className="text-xs text-slate-500">Free</span>}>
      <p className="text-sm text-slate-600">Each child&apos;s Bulk QR card, photographed before their portraits, files every frame after it under that child until the next card.</p>
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <Button onClick={() => start.mutate()} disabled={start.isPending || running || !photoCount}>
          {latest ? `Sort again (${photoCount ?? 0} photos)` : `Sort ${photoCount ?? 0} photos by QR card`}
        </Button>
        {latest?.summary?.corrected_by_hand ? (
          <span className="text-sm text-slate-600" data-testid="qr-sort-keeps">
            Sorting again keeps your {latest.summary.corrected_by_hand === 1 ? "correction" : `${latest.summary.corrected_by_hand} corrections`} by hand.
          </span>
        ) : null}
        {start.error ? (
          <span role="alert" className="text-sm text-red-700">
            {errorMessage(start.error)}
          </span>
        ) : null}
      </div>
      {sorts.error ? <QueryError title="Could not load the sorts." error={sorts.error} onRetry={() => void sorts.refetch()} /> : null}
      {latest ? (
        <div className="mt-4 text-sm" data-testid="qr-sort-status">
          {running ? (
            <>
              <p>
                Reading cards… {latest.progress.current} of {latest.progress.total} photos
              </p>
              <div className="mt-1 h-2 overflow-hidden rounded bg-slate-100" role="progressbar" aria-label="QR sort progress" aria-valuenow={latest.progress.percentage} aria-valuemin={0} aria-valuemax={100}>
                <div className="h-full bg-brand-600 transition-all" style={{ width: `${latest.progress.percentage}%` }} />
              </div>
            </>
          ) : latest.status === "failed" ? (
            <p className="text-red-700">The sort failed: {latest.error}</p>
          ) : latest.summary ? (
            <p>
              Sorted {latest.total_files} photos: {latest.summary.cards} cards, {latest.summary.subjects_photographed} children, {latest.summary.needs_review} to review.{" "}
              <Link href={`/agencies/${agencyId}/jobs/${jobId}/qr-sort/${latest.task_id}`} className="font-medium text-brand-600 hover:underline">
                Open the contact sheet
              </Link>
            </p>
          ) : null}
        </div>
      ) : null}
      {earlier.length ? (
        <details className="mt-3 text-sm">
          <summary className="cursor-pointer text-slate-600">Earlier sorts ({earlier.length})</summary>
          <ul className="mt-1 space-y-1">
            {earlier.map((t) => (
              <li key={t.task_id}>
                {t.status === "completed" ? (
                  <Link href={`/agencies/${agencyId}/jobs/${jobId}/qr-sort/${t.task_id}`} className="text-brand-600 hover:underline">
                    {new Date(t.created_at).toLocaleString()}
                  </Link>
                ) : (
                  <span>{new Date(t.created_at).toLocaleString()}</span>
                )}{" "}
                <span className="text-slate-500">· {t.status === "completed" && t.summary ? `${t.total_files} photos, ${t.summary.corrected_by_hand} by hand` : t.status}</span>
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </Card>
  );
}
