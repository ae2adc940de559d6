"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState, ListSkeleton } from "@/components/ui/list-states";
import { PaginationControls } from "@/components/ui/pagination-controls";
import { QueryError } from "@/components/ui/query-error";
import { Settings, StatusFilter, StatusPill, When } from "@/components/history/history-parts";
import { useHistoryList } from "@/components/history/use-history-list";
import { downloadZip } from "@/lib/client/download-files";
import { useQueryParam } from "@/lib/client/use-query-param";
import { Checkerboard } from "./checkerboard";
import { subjectTypeLabel } from "@/lib/services/bg-remove/values";
import type { BgRemoveJob } from "./types";
import { studioApi, unwrap, type ApiResponse } from "@/lib/client/typed-api";

/** GET /v1/services/bg-remove items: the job with its pictures. */
/** One job of GET /v1/services/bg-remove, as the API document describes it. */
export type BgRemoveHistoryJob = ApiResponse<"/v1/services/bg-remove", "get">["data"][number];

const STATUSES = ["processing", "completed", "failed"] as const;
const running = (j: BgRemoveJob) => j.status === "processing" || j.status === "pending";
export const BG_REMOVE_HISTORY_KEY = ["bg-remove", "jobs"] as const;

function HistoryCard({ job, highlighted }: { job: BgRemoveHistoryJob; highlighted?: boolean }) {
  return (
    <article
      id={`job-${job.job_id}`}
      className={`rounded-lg border bg-white p-3 shadow-sm ${highlighted ? "border-brand-500 ring-2 ring-brand-200" : "border-slate-200"}`}
      data-testid="bg-remove-history-item"
      data-job-id={job.job_id}
      data-status={job.status}
      aria-label={`Background removal ${job.job_id}`}
    >
      <header className="mb-2 flex items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="truncate text-sm font-medium text-slate-800" title={job.source_name ?? undefined}>
            {job.source_name ?? "Background removal"}
          </p>
          <p className="truncate font-mono text-[11px] text-slate-500">{job.job_id}</p>
          <When iso={job.created_at} />
        </div>
        <StatusPill status={job.status} />
      </header>
      <div className="grid grid-cols-2 gap-2">
        <div className="flex aspect-square items-center justify-center overflow-hidden rounded-md border border-slate-200 bg-slate-50">
          {/* eslint-disable-next-line @next/next/no-img-element -- a signed, expiring URL */}
          <img src={job.source_url} alt={`Original of ${job.job_id}`} className="max-h-full max-w-full object-contain" loading="lazy" />
        </div>
        <Checkerboard className="flex aspect-square items-center justify-center">
          {job.status === "completed" && job.output_url ? (
            // eslint-disable-next-line @next/next/no-img-element -- a signed, expiring URL
            <img src={job.output_url} alt={`Cut-out of ${job.job_id}`} className="max-h-full max-w-full object-contain" data-testid="bg-remove-history-result" loading="lazy" />
          ) : job.status === "failed" ? (
            <p className="px-2 text-center text-xs text-red-700">{job.error_message ?? "Failed."}</p>
          ) : (
            <p className="flex items-center gap-2 text-xs text-slate-600">
              <span className="h-3 w-3 animate-spin rounded-full border-2 border-slate-300 border-t-brand-600" aria-hidden />
              Removing the background…
            </p>
          )}
        </Checkerboard>
      </div>
      <div className="mt-2 space-y-1">
        <Settings
          items={[
            ["Subject", subjectTypeLabel(job.subject_type)],
            ["Edges", job.edge_softness],
            ["High detail", job.high_detail_mode ? "on" : "off"],
            ["Background", job.output_background],
          ]}
        />
        <div className="flex items-center justify-between text-xs text-slate-500">
          <span>{job.status === "failed" ? `${job.tokens_deducted} tokens refunded` : `${job.tokens_deducted} tokens`}</span>
          {job.download_url ? (
            <a href={job.download_url} download={job.download_name} className="font-medium text-brand-700 hover:underline" data-testid="bg-remove-download">
              Download PNG
            </a>
          ) : null}
        </div>
      </div>
    </article>
  );
}

/**
 * Every background removal of the account, newest first, from the API: a reload
 * or Back shows the same list (page and filter are in the URL), and `?job=` (the
 * wallet's link) picks one job out.
 */
export function BgRemoveHistory() {
  const { query, setPage, status, setStatus } = useHistoryList<BgRemoveHistoryJob>("/v1/services/bg-remove", BG_REMOVE_HISTORY_KEY, running);
  const [jobParam] = useQueryParam("job");
  const [zipping, setZipping] = useState<string | null>(null);
  const picked = useQuery({
    queryKey: [...BG_REMOVE_HISTORY_KEY, "one", jobParam],
    queryFn: async () => unwrap(await studioApi.GET("/v1/services/bg-remove/{jobId}", { params: { path: { jobId: jobParam! } } })),
    enabled: !!jobParam,
    refetchInterval: (q) => (q.state.data && running(q.state.data) ? 2_000 : false),
  });
  useEffect(() => {
    if (picked.data) document.getElementById(`picked-${picked.data.job_id}`)?.scrollIntoView({ block: "center" });
  }, [picked.data]);

  const jobs = query.data?.data ?? [];
  const done = jobs.filter((j) => j.download_url);

  async function zipAll() {
    setZipping("Preparing…");
    try {
      await downloadZip(
        done.map((j) => ({ url: j.download_url!, name: j.download_name })),
        "cutouts.zip",
        (n) => setZipping(`${n} of ${done.length}…`),
      );
      setZipping(null);
    } catch (err) {
      setZipping(err instanceof Error ? err.message : "The ZIP could not be made.");
    }
  }

  return (
    <section aria-label="History" className="space-y-3">
      {jobParam ? (
        <div id={picked.data ? `picked-${picked.data.job_id}` : undefined}>
          <h2 className="mb-2 text-base font-semibold text-slate-900">Job {jobParam}</h2>
          {picked.isPending ? <ListSkeleton label="Loading the job" rows={1} rowClassName="h-40" /> : picked.error ? <QueryError title="The job could not be loaded." error={picked.error} onRetry={() => void picked.refetch()} /> : picked.data ? <div className="max-w-md"><HistoryCard job={picked.data} highlighted /></div> : null}
        </div>
      ) : null}
      <Card title="History">
        <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
          <StatusFilter label="Status" value={status} options={STATUSES} onChange={setStatus} />
          <div className="flex items-center gap-3">
            {zipping ? <span className="text-xs text-slate-600" role="status">{zipping}</span> : null}
            <Button variant="secondary" onClick={() => void zipAll()} disabled={done.length === 0 || (zipping !== null && zipping.endsWith("…"))} data-testid="bg-remove-zip">
              Download all as ZIP ({done.length})
            </Button>
          </div>
        </div>
        {query.isPending ? (
          <ListSkeleton label="Loading the history" rows={2} rowClassName="h-40" />
        ) : query.error ? (
          <QueryError title="The history could not be loaded." error={query.error} onRetry={() => void query.refetch()} />
        ) : jobs.length === 0 ? (
          <EmptyState>{status ? "No jobs in this state." : "No background removals yet: the images you send appear here, and stay."}</EmptyState>
        ) : (
          <div className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3" data-testid="bg-remove-history">
            {jobs.map((job) => (
              <HistoryCard key={job.job_id} job={job} highlighted={job.job_id === jobParam} />
            ))}
          </div>
        )}
        {query.data ? <PaginationControls meta={query.data.meta} onPageChange={setPage} className="mt-4" label="History pages" /> : null}
      </Card>
    </section>
  );
}
