"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { Card } from "@/components/ui/card";
import { EmptyState, ListSkeleton } from "@/components/ui/list-states";
import { PaginationControls } from "@/components/ui/pagination-controls";
import { QueryError } from "@/components/ui/query-error";
import { Settings, StatusFilter, StatusPill, When } from "@/components/history/history-parts";
import { useHistoryList } from "@/components/history/use-history-list";
import { sameOriginFileUrl } from "@/lib/client/download-files";
import { studioApi, unwrap, type ApiResponse } from "@/lib/client/typed-api";
import { useQueryParam } from "@/lib/client/use-query-param";
import { renderFirstPage } from "./pdf-first-page";

/** GET /v1/services/studio/qr/generations items, from the OpenAPI document. */
export type QrGeneration = ApiResponse<"/v1/services/studio/qr/generations/{generationId}", "get">;

const KEY = ["qr", "generations"] as const;
const STATUSES = ["completed", "failed"] as const;
const THUMB_WIDTH = 150;

/** Page 1 of the run's PDF as a picture, drawn in the browser (pdf.js), cached per run. */
function FirstPage({ gen }: { gen: QrGeneration }) {
  const thumb = useQuery({
    queryKey: [...KEY, "thumb", gen.id],
    queryFn: async () => {
      const res = await fetch(sameOriginFileUrl(gen.pdf_url!), { credentials: "same-origin" });
      if (!res.ok) throw new Error(`The PDF could not be loaded (${res.status}).`);
      return renderFirstPage(await res.arrayBuffer(), THUMB_WIDTH);
    },
    enabled: !!gen.pdf_url,
    staleTime: Infinity,
    retry: 1,
  });
  return (
    <div className="flex h-48 w-36 shrink-0 items-center justify-center overflow-hidden rounded border border-slate-200 bg-slate-50">
      {thumb.data ? (
        // eslint-disable-next-line @next/next/no-img-element -- a data URL drawn here
        <img src={thumb.data} alt={`First page of ${gen.job_id}`} className="max-h-full max-w-full" data-testid="qr-history-thumb" />
      ) : gen.status === "failed" ? (
        <span className="px-2 text-center text-xs text-red-700">No PDF</span>
      ) : thumb.error ? (
        <span className="px-2 text-center text-xs text-slate-500">Preview unavailable</span>
      ) : (
        <span className="h-4 w-4 animate-spin rounded-full border-2 border-slate-300 border-t-brand-600" aria-label="Drawing the first page" />
      )}
    </div>
  );
}

function Row({ gen, highlighted }: { gen: QrGeneration; highlighted?: boolean }) {
  return (
    <li
      id={`qr-${gen.id}`}
      className={`flex gap-4 rounded-lg border p-3 ${highlighted ? "border-brand-500 ring-2 ring-brand-200" : "border-slate-200"}`}
      data-testid="qr-history-item"
      data-generation-id={gen.id}
    >
      <FirstPage gen={gen} />
      <div className="min-w-0 flex-1 space-y-1">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="truncate font-medium text-slate-900">{gen.job_id}</p>
          <StatusPill status={gen.status} />
        </div>
        <When iso={gen.created_at} />
        <Settings
          items={[
            ["Cards", gen.total_subjects],
            ["Layout", gen.layout],
            ["Paper", gen.page_size === "a4" ? "A4" : "Letter"],
            ["Pages", gen.pages ?? "—"],
            ["Tokens", gen.tokens_deducted],
          ]}
        />
        {gen.error_message ? <p className="text-xs text-red-700">{gen.error_message}</p> : null}
        {gen.download_url ? (
          <div className="flex gap-3 pt-1 text-sm">
            <a href={gen.download_url} download={`qr-cards-${gen.job_id}.pdf`} className="font-medium text-brand-700 hover:underline" data-testid="qr-history-download">
              Download PDF
            </a>
            <a href={gen.pdf_url!} target="_blank" rel="noreferrer" className="text-slate-600 hover:underline">
              Open
            </a>
          </div>
        ) : null}
        <p className="font-mono text-[11px] text-slate-400">{gen.id}</p>
      </div>
    </li>
  );
}

/** Every Bulk QR run of the account, newest first, with its PDF: a reload keeps it. `?generation=` (the wallet's link) picks one out. */
export function QrHistory() {
  const { query, setPage, status, setStatus } = useHistoryList(
    async ({ status, ...q }) => unwrap(await studioApi.GET("/v1/services/studio/qr/generations", { params: { query: { ...q, ...(status ? { status: status as QrGeneration["status"] } : {}) } } })),
    KEY,
    (g) => g.status === "processing", 6);
  const [picked] = useQueryParam("generation");
  const one = useQuery({
    queryKey: [...KEY, "one", picked],
    queryFn: async () => unwrap(await studioApi.GET("/v1/services/studio/qr/generations/{generationId}", { params: { path: { generationId: picked! } } })),
    enabled: !!picked,
  });
  useEffect(() => {
    if (one.data) document.getElementById(`picked-qr-${one.data.id}`)?.scrollIntoView({ block: "center" });
  }, [one.data]);
  const runs = query.data?.data ?? [];
  return (
    <Card title="Past runs" actions={<StatusFilter label="Status" value={status} options={STATUSES} onChange={setStatus} />}>
      {picked ? (
        <div id={one.data ? `picked-qr-${one.data.id}` : undefined} className="mb-4">
          {one.isPending ? <ListSkeleton label="Loading the run" rows={1} rowClassName="h-48" /> : one.error ? <QueryError title="The run could not be loaded." error={one.error} /> : one.data ? <ul><Row gen={one.data} highlighted /></ul> : null}
        </div>
      ) : null}
      {query.isPending ? (
        <ListSkeleton label="Loading past runs" rows={2} rowClassName="h-48" />
      ) : query.error ? (
        <QueryError title="Past runs could not be loaded." error={query.error} onRetry={() => void query.refetch()} />
      ) : runs.length === 0 ? (
        <EmptyState>{status ? "No runs in this state." : "No cards printed yet: each PDF you generate stays here."}</EmptyState>
      ) : (
        <ul className="space-y-3" data-testid="qr-history">
          {runs.map((g) => (
            <Row key={g.id} gen={g} highlighted={g.id === picked} />
          ))}
        </ul>
      )}
      {query.data ? <PaginationControls meta={query.data.meta} onPageChange={setPage} className="mt-4" label="Past run pages" /> : null}
    </Card>
  );
}
