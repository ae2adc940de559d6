"use client";

import { useCallback } from "react";
import { Checkerboard } from "./checkerboard";
import { BG_REMOVE_COST } from "@/lib/services/bg-remove/values";
import { useBgRemoveJob } from "./use-bg-remove-job";
import type { ImageItem } from "./types";

const STATUS_STYLES: Record<string, string> = {
  sending: "bg-slate-100 text-slate-700",
  processing: "bg-amber-100 text-amber-800",
  pending: "bg-amber-100 text-amber-800",
  queued: "bg-slate-100 text-slate-700",
  completed: "bg-emerald-100 text-emerald-800",
  failed: "bg-red-100 text-red-800",
  refused: "bg-red-100 text-red-800",
};

const STATUS_LABELS: Record<string, string> = {
  sending: "Uploading",
  processing: "Processing",
  pending: "Queued",
  queued: "Queued",
  completed: "Done",
  failed: "Failed, refunded",
  refused: "Not sent",
};

function seconds(from: string, to?: string | null) {
  if (!to) return null;
  return ((new Date(to).getTime() - new Date(from).getTime()) / 1000).toFixed(1);
}

function downloadName(file: File) {
  return `${file.name.replace(/\.[^.]+$/, "") || "image"}-cutout.png`;
}

/**
 * One image: its original beside the cut-out on a checkerboard, with the job's
 * live status. `poll` is off for jobs waiting behind others (they are queued
 * anyway), which keeps a big batch under the API's request limit.
 */
export function BgRemoveJobCard({ item, poll, onFinished }: { item: ImageItem; poll: boolean; onFinished: (localId: string) => void }) {
  const finish = useCallback(() => onFinished(item.localId), [onFinished, item.localId]);
  const { data: job, error } = useBgRemoveJob(item.jobId, poll, finish);
  const jobStatus = job?.status === "processing" && !poll ? "queued" : job?.status;
  const status = item.stage === "sent" ? (jobStatus ?? "processing") : item.stage;
  const message = item.error ?? job?.error_message ?? (error ? `Could not check the job: ${error.message}` : null);
  const took = job ? seconds(job.created_at, job.completed_at) : null;

  return (
    <article className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm" data-testid="bg-remove-job" data-status={status} aria-label={`Background removal of ${item.file.name}`}>
      <header className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <div className="min-w-0">
          <h3 className="truncate text-sm font-medium text-slate-900">{item.file.name}</h3>
          {item.jobId ? <p className="font-mono text-xs text-slate-500">{item.jobId}</p> : null}
        </div>
        <span role="status" className={`rounded-full px-2.5 py-0.5 text-xs font-medium ${STATUS_STYLES[status] ?? STATUS_STYLES.processing}`}>
          {STATUS_LABELS[status] ?? status}
        </span>
      </header>
      <div className="grid grid-cols-2 gap-3">
        <figure>
          <div className="flex aspect-square items-center justify-center overflow-hidden rounded-md border border-slate-200 bg-slate-50">
            {/* eslint-disable-next-line @next/next/no-img-element -- a local object URL, not an optimisable asset */}
            <img src={item.previewUrl} alt={`Original: ${item.file.name}`} className="max-h-full max-w-full object-contain" />
          </div>
          <figcaption className="mt-1 text-xs text-slate-500">Original</figcaption>
        </figure>
        <figure>
          <Checkerboard className="flex aspect-square items-center justify-center">
            {job?.status === "completed" && job.output_url ? (
              // eslint-disable-next-line @next/next/no-img-element -- a signed, expiring URL
              <img src={job.output_url} alt={`Cut-out: ${item.file.name}`} className="max-h-full max-w-full object-contain" data-testid="bg-remove-result" />
            ) : status === "failed" || status === "refused" ? (
              <p className="px-4 text-center text-sm text-red-700">{message ?? "Failed."}</p>
            ) : (
              <p className="flex items-center gap-2 text-sm text-slate-600">
                <span className="h-4 w-4 animate-spin rounded-full border-2 border-slate-300 border-t-brand-600" aria-hidden />
                {status === "sending" ? "Uploading…" : status === "queued" ? "Waiting for the images before it…" : "Removing the background…"}
              </p>
            )}
          </Checkerboard>
          <figcaption className="mt-1 flex items-center justify-between text-xs text-slate-500">
            <span>Cut-out{took ? ` · ${took} s` : ""}</span>
            {job?.status === "completed" && job.output_url ? (
              <a href={job.download_url ?? job.output_url} download={downloadName(item.file)} className="font-medium text-brand-700 hover:underline">
                Download PNG
              </a>
            ) : null}
          </figcaption>
        </figure>
      </div>
      {status === "failed" && message ? <p className="mt-2 text-xs text-slate-600">The {job?.tokens_deducted ?? BG_REMOVE_COST} tokens were refunded.</p> : null}
    </article>
  );
}
