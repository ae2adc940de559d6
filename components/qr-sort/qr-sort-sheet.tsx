"use client";

import Link from "next/link";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useMemo, useState, type DragEvent } from "react";
import { Card } from "@/components/ui/card";
import { PaginationControls } from "@/components/ui/pagination-controls";
import { QueryError } from "@/components/ui/query-error";
import { errorMessage } from "@/components/agencies/api-errors";
import { useRoster } from "@/components/matching/use-roster";
import type { Subject } from "@/components/agencies/types";
import { studioApi, unwrap } from "@/lib/client/typed-api";
import { runColours, toRuns, type Run } from "./runs";
import { REVIEW_LABEL, qrSortKeys, type SortFrame, type SortTask } from "./types";

/** Frames per sheet page: a class of 30 children with a card and 3 portraits each. */
const PER_PAGE = 100;
const NOBODY = "";
const DRAG_TYPE = "application/x-qr-sort-file";

/**
 * /agencies/[id]/jobs/[jobId]/qr-sort/[taskId]: the sorted frames in capture
 * order as a contact sheet, each child's run a coloured band, card frames
 * marked with the decoded name. A frame moves to another child by dragging it
 * onto that child's band, or with its own menu (touch and keyboard).
 */
export function QrSortSheet({ agencyId, jobId, taskId }: { agencyId: number; jobId: number; taskId: string }) {
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [reviewOnly, setReviewOnly] = useState(false);
  const task = useQuery({
    queryKey: qrSortKeys.task(taskId),
    queryFn: async () => {
      const t = unwrap(await studioApi.GET("/v1/services/studio/jobs/{taskId}", { params: { path: { taskId } } }));
      if (!("type" in t) || t.type !== "qr_sort") throw new Error(`${taskId} is not a QR sort.`);
      return t as SortTask;
    },
    refetchInterval: (q) => (q.state.data && (q.state.data.status === "queued" || q.state.data.status === "running") ? 1500 : false),
  });
  const finished = task.data?.status === "completed";
  const results = useQuery({
    queryKey: [...qrSortKeys.results(taskId), reviewOnly, page],
    enabled: finished,
    placeholderData: keepPreviousData,
    queryFn: async () =>
      unwrap(
        await studioApi.GET("/v1/services/studio/qr-sort/{taskId}/results", {
          params: { path: { taskId }, query: { limit: String(PER_PAGE), page: String(page), ...(reviewOnly ? { needs_review: "true" as const } : {}) } },
        }),
      ),
  });
  const roster = useRoster(agencyId);
  const people = useMemo(() => [...(roster.data?.values() ?? [])].sort((a, b) => a.name.localeCompare(b.name)), [roster.data]);
  const move = useMutation({
    mutationFn: async ({ fileId, subjectId }: { fileId: number; subjectId: string | null }) =>
      unwrap(await studioApi.PATCH("/v1/services/studio/qr-sort/{taskId}/results/{fileId}", { params: { path: { taskId, fileId: String(fileId) } }, body: { subject_id: subjectId } })),
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: qrSortKeys.results(taskId) }), queryClient.invalidateQueries({ queryKey: qrSortKeys.task(taskId) })]),
  });

  const runs = useMemo(() => toRuns(results.data?.data ?? []), [results.data]);
  const colours = useMemo(() => runColours(runs), [runs]);
  const base = `/v1/services/studio/qr-sort/${taskId}`;

  if (task.error) return <QueryError title="Could not load the QR sort." error={task.error} onRetry={() => void task.refetch()} />;
  const t = task.data;
  return (
    <div className="space-y-6">
      <div>
        <Link href={`/agencies/${agencyId}/jobs/${jobId}`} className="text-sm text-brand-600 hover:underline">
          ← Job photos
        </Link>
        <h1 className="mt-1 text-2xl font-semibold text-slate-900">QR sort</h1>
        {t ? (
          <p className="mt-1 text-sm text-slate-600" data-testid="sort-summary">
            {t.status === "completed" && t.summary
              ? `${t.total_files} photos · ${t.summary.cards} cards · ${t.summary.subjects_photographed} children · ${t.summary.before_first_card} before the first card · ${t.summary.unknown_card} after an unknown card · ${t.summary.needs_review} to review`
              : t.status === "failed"
                ? `Failed: ${t.error}`
                : `Reading cards… ${t.progress.current} of ${t.progress.total} photos`}
          </p>
        ) : null}
      </div>
      {t?.warnings.length ? (
        <Card title="Worth a look">
          <ul className="list-disc space-y-1 pl-5 text-sm text-amber-800" data-testid="sort-warnings">
            {t.warnings.map((w, i) => (
              <li key={i}>{w.message}</li>
            ))}
          </ul>
        </Card>
      ) : null}
      {finished ? (
        <Card
          title="Contact sheet"
          actions={
            <div className="flex flex-wrap items-center gap-2 text-sm">
              <a href={`${base}/pspa`} download className="rounded-md border border-slate-300 bg-white px-3 py-1.5 font-medium text-slate-700 hover:bg-slate-100">
                PSPA package
              </a>
              <a href={`${base}/lab-zip`} download className="rounded-md border border-slate-300 bg-white px-3 py-1.5 font-medium text-slate-700 hover:bg-slate-100">
                Lab ZIP
              </a>
              <a href={`${base}/export`} download className="rounded-md border border-slate-300 bg-white px-3 py-1.5 font-medium text-slate-700 hover:bg-slate-100">
                CSV
              </a>
            </div>
          }
        >
          <label className="mb-4 flex items-center gap-2 text-sm text-slate-700">
            <input
              type="checkbox"
              checked={reviewOnly}
              onChange={(e) => {
                setReviewOnly(e.target.checked);
                setPage(1);
              }}
            />
            Only what needs review
          </label>
          {move.error ? (
            <p role="alert" className="mb-3 text-sm text-red-600">
              {errorMessage(move.error) ?? "The photo could not be moved."}
            </p>
          ) : null}
          {results.error ? (
            <QueryError title="Could not load the sorted photos." error={results.error} onRetry={() => void results.refetch()} />
          ) : results.data && results.data.data.length === 0 ? (
            <p className="text-sm text-slate-500">{reviewOnly ? "Nothing needs review." : "No photos."}</p>
          ) : (
            <div className="space-y-3" data-testid="contact-sheet">
              {runs.map((run, i) => (
                <RunBand key={`${run.key}-${i}`} run={run} colour={colours.get(run.key)!} people={people} busy={move.isPending} onMove={(fileId, subjectId) => move.mutate({ fileId, subjectId })} />
              ))}
            </div>
          )}
          {results.data ? <PaginationControls className="mt-4" meta={results.data.meta} onPageChange={setPage} disabled={results.isFetching} label="Contact sheet pages" /> : null}
        </Card>
      ) : null}
    </div>
  );
}

type MoveFn = (fileId: number, subjectId: string | null) => void;

/** One run: a band in its child's colour that takes frames dropped on it. */
function RunBand({ run, colour, people, busy, onMove }: { run: Run; colour: string; people: Subject[]; busy: boolean; onMove: MoveFn }) {
  const [over, setOver] = useState(false);
  const accepts = (e: DragEvent) => e.dataTransfer.types.includes(DRAG_TYPE);
  return (
    <section
      aria-label={`Run: ${run.label}`}
      data-testid="run-band"
      data-subject-id={run.subjectId ?? ""}
      className={`rounded-md border-l-8 bg-slate-50 p-2 ${over ? "ring-2 ring-brand-500" : ""}`}
      style={{ borderLeftColor: colour }}
      onDragOver={(e) => {
        if (!accepts(e)) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = "move";
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        setOver(false);
        const fileId = Number(e.dataTransfer.getData(DRAG_TYPE));
        if (!fileId || run.frames.some((f) => f.file_id === fileId)) return;
        e.preventDefault();
        onMove(fileId, run.subjectId);
      }}
    >
      <h3 className="mb-2 text-sm font-semibold" style={{ color: colour }}>
        {run.label} <span className="font-normal text-slate-500">· {run.frames.length} {run.frames.length === 1 ? "photo" : "photos"}</span>
      </h3>
      <ul className="grid grid-cols-2 gap-2 sm:grid-cols-4 lg:grid-cols-6">
        {run.frames.map((f) => (
          <FrameTile key={`${f.file_id}-${f.sequence}`} frame={f} colour={colour} people={people} busy={busy} onMove={onMove} />
        ))}
      </ul>
    </section>
  );
}

function FrameTile({ frame: f, colour, people, busy, onMove }: { frame: SortFrame; colour: string; people: Subject[]; busy: boolean; onMove: MoveFn }) {
  const movable = f.file_id !== null;
  return (
    <li
      className="overflow-hidden rounded-md border-2 bg-white"
      style={{ borderColor: colour }}
      draggable={movable}
      onDragStart={(e) => {
        e.dataTransfer.setData(DRAG_TYPE, String(f.file_id));
        e.dataTransfer.effectAllowed = "move";
      }}
      data-testid="sheet-frame"
      data-filename={f.filename}
    >
      <div className="relative aspect-[3/2] bg-slate-100">
        {f.thumbnail_url ? (
          // Signed storage URLs: next/image would fetch them again through its optimiser for nothing.
          // eslint-disable-next-line @next/next/no-img-element
          <img src={f.thumbnail_url} alt={f.filename} className="h-full w-full object-contain" loading="lazy" draggable={false} />
        ) : (
          <span className="flex h-full items-center justify-center text-xs text-slate-400">deleted</span>
        )}
        {f.role === "card" ? (
          <span className="absolute left-1 top-1 rounded bg-slate-900/80 px-1.5 py-0.5 text-xs font-medium text-white" data-testid="card-badge">
            Card · {f.name ?? f.student_id}
          </span>
        ) : null}
      </div>
      <div className="space-y-1 px-2 py-1 text-xs">
        <p className="truncate text-slate-700" title={f.filename}>
          {f.sequence + 1}. {f.filename}
          {f.manual ? <span className="ml-1 text-slate-500">(moved by hand)</span> : null}
        </p>
        {f.review.length ? (
          <p className="text-amber-700" data-testid="review-reasons">
            Review: {f.review.map((r) => REVIEW_LABEL[r] ?? r).join(", ")}
          </p>
        ) : null}
        {movable ? (
          <select
            aria-label={`Child for ${f.filename}`}
            className="w-full rounded border border-slate-300 bg-white px-1 py-0.5"
            value={f.subject_id ?? NOBODY}
            disabled={busy}
            onChange={(e) => onMove(f.file_id!, e.target.value === NOBODY ? null : e.target.value)}
          >
            <option value={NOBODY}>Nobody</option>
            {people.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name} ({s.student_id})
              </option>
            ))}
          </select>
        ) : null}
      </div>
    </li>
  );
}
