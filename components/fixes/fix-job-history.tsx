"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect } from "react";
import { Card } from "@/components/ui/card";
import { EmptyState, ListSkeleton } from "@/components/ui/list-states";
import { PaginationControls } from "@/components/ui/pagination-controls";
import { QueryError } from "@/components/ui/query-error";
import { Settings, StatusFilter, StatusPill, When } from "@/components/history/history-parts";
import { useHistoryList } from "@/components/history/use-history-list";
import { studioApi, unwrap, type ApiResponse } from "@/lib/client/typed-api";
import { useQueryParam } from "@/lib/client/use-query-param";
import { EnlargeableImage } from "@/components/ui/enlargeable-image";
import { ReviewDecision } from "./review-decision";

/** GET /v1/services/preflight/ai-jobs items (camelCase, as the contract's AI fix jobs), from the OpenAPI document. */
type FixJob = ApiResponse<"/v1/services/preflight/ai-jobs/{jobId}", "get">["data"];

const KEY = ["ai-fixes", "jobs"] as const;
const STATUSES = ["analyzing", "awaiting_approval", "applying", "completed", "failed", "rejected"] as const;
const running = (j: FixJob) => j.status === "analyzing" || j.status === "applying";
const TIERS: Record<string, string> = { raster: "Image", pdf_bleed: "PDF bleed", pdf_prepress: "PDF full prepress" };
const words = (s: string) => s.replace(/_/g, " ");

function Picture({ url, alt }: { url: string | null; alt: string }) {
  return (
    <div className="flex h-32 w-32 shrink-0 items-center justify-center overflow-hidden rounded border border-slate-200 bg-slate-50">
      {url ? <EnlargeableImage src={url} alt={alt} className="max-h-32 object-contain" /> : <span className="text-[11px] text-slate-400">no preview</span>}
    </div>
  );
}

/** Approve or reject a job waiting for its review, here as on its report's page. */
function ReviewButtons({ job }: { job: FixJob }) {
  const queryClient = useQueryClient();
  const decide = useMutation({
    mutationFn: async (action: "approve" | "reject") => unwrap(await studioApi.POST(`/v1/services/preflight/ai-jobs/{jobId}/${action}`, { params: { path: { jobId: job.jobId } }, body: {} })),
    onSettled: () => Promise.all([queryClient.invalidateQueries({ queryKey: KEY }), queryClient.invalidateQueries({ queryKey: ["wallet"] })]),
  });
  return (
    <div className="flex flex-wrap items-center gap-2" data-testid="ai-fix-review">
      <ReviewDecision disabled={decide.isPending} onDecide={(action) => decide.mutate(action)} />
      {decide.error ? <span className="text-xs text-red-700">{decide.error.message}</span> : null}
    </div>
  );
}

function Row({ job, highlighted }: { job: FixJob; highlighted?: boolean }) {
  return (
    <li className={`flex flex-wrap gap-4 rounded-lg border p-3 ${highlighted ? "border-brand-500 ring-2 ring-brand-200" : "border-slate-200"}`} data-testid="ai-fix-history-item" data-job-id={job.jobId}>
      <figure className="space-y-1">
        <Picture url={job.preview.beforeUrl} alt={`Before: ${job.jobId}`} />
        <figcaption className="text-center text-[11px] text-slate-500">Before</figcaption>
      </figure>
      <figure className="space-y-1">
        <Picture url={job.preview.afterUrl} alt={`After: ${job.jobId}`} />
        <figcaption className="text-center text-[11px] text-slate-500">After</figcaption>
      </figure>
      {/* Beside the pictures when 15rem is left for it, under them on a phone. */}
      <div className="min-w-0 flex-[1_1_15rem] space-y-1">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="break-all font-mono text-xs text-slate-600">{job.jobId}</p>
          <StatusPill status={job.status} />
        </div>
        <When iso={job.createdAt} />
        <Settings items={[["Fixes", job.fixTypes.map(words).join(", ") || "from the report"], ["Kind", TIERS[job.tier] ?? job.tier], ["Target", `${job.targetDpi} dpi`], ["Tokens", job.status === "failed" ? `${job.tokensDeducted} (refunded)` : job.tokensDeducted]]} />
        {job.errorMessage ? <p className="text-xs text-red-700">{job.errorMessage}</p> : null}
        {job.status === "awaiting_approval" ? <ReviewButtons job={job} /> : null}
        <div className="flex flex-wrap gap-3 pt-1 text-sm">
          {job.correctedFileUrl ? (
            <a href={job.correctedFileUrl} download className="font-medium text-brand-700 hover:underline" data-testid="ai-fix-download">
              Download corrected file
            </a>
          ) : null}
          <Link href={`/preflight?report=${encodeURIComponent(job.preflightReportId)}`} className="text-slate-600 hover:underline">
            Report {job.preflightReportId}
          </Link>
          {job.preview.pages.length > 1 ? (
            // The row's pictures are page 1; the report's page has every page, before and after.
            <Link href={`/preflight?report=${encodeURIComponent(job.preflightReportId)}`} className="font-medium text-brand-700 hover:underline" data-testid="ai-fix-all-pages">
              See all {job.preview.pages.length} pages before and after
            </Link>
          ) : null}
        </div>
      </div>
    </li>
  );
}

/** Every AI fix job of the account, newest first, with before/after pictures; `?job=` (the wallet's link) picks one out. */
export function FixJobHistory() {
  const { query, setPage, status, setStatus } = useHistoryList(
    async ({ status, ...q }) => unwrap(await studioApi.GET("/v1/services/preflight/ai-jobs", { params: { query: { ...q, ...(status ? { status: status as FixJob["status"] } : {}) } } })),
    KEY,
    running,
    10,
  );
  const [picked] = useQueryParam("job");
  const one = useQuery({
    queryKey: [...KEY, "one", picked],
    queryFn: async () => unwrap(await studioApi.GET("/v1/services/preflight/ai-jobs/{jobId}", { params: { path: { jobId: picked! } } })).data,
    enabled: !!picked,
    refetchInterval: (q) => (q.state.data && running(q.state.data) ? 2_000 : false),
  });
  useEffect(() => {
    if (one.data) document.getElementById("picked-fix")?.scrollIntoView({ block: "center" });
  }, [one.data]);
  const jobs = query.data?.data ?? [];
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">AI fixes</h1>
        <p className="mt-1 text-sm text-slate-600">
          Every fix job you ran from a <Link href="/preflight" className="underline">preflight report</Link>, with its corrected file. Failed jobs were refunded.
        </p>
      </div>
      {picked ? (
        <div id="picked-fix">
          {one.isPending ? <ListSkeleton label="Loading the job" rows={1} rowClassName="h-32" /> : one.error ? <QueryError title="The job could not be loaded." error={one.error} /> : one.data ? <ul><Row job={one.data} highlighted /></ul> : null}
        </div>
      ) : null}
      <Card title="History" actions={<StatusFilter label="Status" value={status} options={STATUSES} onChange={setStatus} />}>
        {query.isPending ? (
          <ListSkeleton label="Loading the history" rows={3} rowClassName="h-32" />
        ) : query.error ? (
          <QueryError title="The history could not be loaded." error={query.error} onRetry={() => void query.refetch()} />
        ) : jobs.length === 0 ? (
          <EmptyState>{status ? "No jobs in this state." : "No AI fix jobs yet."}</EmptyState>
        ) : (
          <ul className="space-y-3" data-testid="ai-fix-history">
            {jobs.map((j) => (
              <Row key={j.jobId} job={j} highlighted={j.jobId === picked} />
            ))}
          </ul>
        )}
        {query.data ? <PaginationControls meta={query.data.meta} onPageChange={setPage} className="mt-4" label="History pages" /> : null}
      </Card>
    </div>
  );
}
