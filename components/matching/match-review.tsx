"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Card } from "@/components/ui/card";
import { QueryError } from "@/components/ui/query-error";
import { studioApi, unwrap } from "@/lib/client/typed-api";
import { GroupReview } from "./group-review";
import { ReviewQueue } from "./review-queue";
import { MatchExport } from "./match-export";
import { SubjectPhotos } from "./subject-photos";
import { useRoster } from "./use-roster";
import { DECISION_LABEL, matchingKeys, type Decision } from "./types";

const QUEUES: Decision[] = ["needs_review", "unmatched", "matched"];

/** /matching/[id]: the counts, progress while it runs, then the review queues and a subject's photos. */
export function MatchReview({ matchJobId }: { matchJobId: number }) {
  const job = useQuery({
    queryKey: matchingKeys.job(matchJobId),
    queryFn: async () => unwrap(await studioApi.GET("/v1/services/studio/matching/jobs/{matchJobId}", { params: { path: { matchJobId: String(matchJobId) } } })),
    refetchInterval: (q) => (q.state.data && (q.state.data.status === "completed" || q.state.data.status === "failed") ? false : 1000),
  });
  const roster = useRoster(job.data?.agency_id);
  const [view, setView] = useState<Decision | "groups" | "subject">("needs_review");
  if (job.error) return <QueryError title="Could not load the match job." error={job.error} onRetry={() => void job.refetch()} />;
  const j = job.data;
  const running = j && (j.status === "queued" || j.status === "running");
  return (
    <div className="space-y-6">
      <div>
        <Link href={j ? `/matching?agency=${j.agency_id}` : "/matching"} className="text-sm text-brand-600 hover:underline">
          ← Face matching
        </Link>
        <h1 className="mt-1 text-2xl font-semibold text-slate-900">Match job #{matchJobId}</h1>
        {j ? (
          <p className="mt-1 text-sm text-slate-600">
            <span className="font-mono text-xs" title="The id the wallet's ledger names this job by">{j.task_id}</span> · {j.total_files} photos · threshold {j.threshold.toFixed(2)} ·{" "}
            {j.tokens_deducted - j.tokens_refunded} tokens
            {j.tokens_refunded ? ` (${j.tokens_refunded} refunded)` : ""} · {j.status}
          </p>
        ) : null}
      </div>
      {j ? (
        <div className="grid grid-cols-2 gap-3 sm:grid-cols-4" data-testid="match-counts">
          {(["needs_review", "unmatched", "matched", "failed"] as const).map((k) => (
            <div key={k} className="rounded-lg border border-slate-200 bg-white p-3">
              <div className="text-xs uppercase text-slate-500">{DECISION_LABEL[k]}</div>
              <div className="text-2xl font-semibold text-slate-900" data-testid={`count-${k}`}>
                {j[k]}
              </div>
            </div>
          ))}
        </div>
      ) : null}
      {running ? (
        <Card>
          <p className="text-sm text-slate-700">
            Matching… {j.processed_files} of {j.total_files} photos
          </p>
          <progress className="mt-2 w-full" max={j.total_files} value={j.processed_files} aria-label="Matching progress" />
          <p className="mt-1 text-xs text-slate-500">You can review the photos already done; the counts follow as the rest come in.</p>
        </Card>
      ) : null}
      {j?.error ? <p className="text-sm text-red-700">{j.error}</p> : null}
      {j && (j.status === "completed" || j.status === "failed") ? <MatchExport job={j} /> : null}
      <div className="flex flex-wrap gap-2" role="tablist">
        {[...QUEUES, "groups" as const, "subject" as const].map((v) => (
          <button
            key={v}
            role="tab"
            aria-selected={view === v}
            onClick={() => setView(v)}
            className={`rounded-md px-3 py-1.5 text-sm font-medium ${view === v ? "bg-brand-600 text-white" : "border border-slate-300 bg-white text-slate-700 hover:bg-slate-100"}`}
          >
            {v === "subject" ? "By child" : v === "groups" ? "Alike faces" : `${DECISION_LABEL[v]}${j ? ` (${j[v]})` : ""}`}
          </button>
        ))}
      </div>
      {j && view !== "subject" && view !== "groups" ? <ReviewQueue key={view} job={j} queue={view} roster={roster.data} /> : null}
      {/* Groups are made when the job ends. */}
      {j && view === "groups" ? running ? <p className="text-sm text-slate-600">Faces are grouped when the job has matched every photo.</p> : <GroupReview job={j} roster={roster.data} /> : null}
      {j && view === "subject" ? <SubjectPhotos job={j} roster={roster.data} /> : null}
    </div>
  );
}
