"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { ApiRequestError } from "@/lib/client/api-fetch";
import { studioApi, unwrap, type ApiResponse } from "@/lib/client/typed-api";
import { deriveFixes, type FixType } from "@/lib/services/preflight/fix-types";
import { FIX_PRICES } from "@/lib/services/fixes/pricing";
import { sameOriginFileUrl } from "./same-origin-url";
import { StatusBadge } from "./status-badge";
import { RECENT_REPORTS_KEY } from "./recent-reports";
import { ISSUE_TITLES, type Report } from "./types";
import { useActionKey, useOnePress } from "@/lib/client/idempotency-key";
import { ReviewDecision } from "@/components/fixes/review-decision";
import { FixPreviews } from "./fix-previews";

/** An AI fix job as GET /v1/services/preflight/ai-jobs/{jobId} returns it, from the OpenAPI document. */
type FixJob = ApiResponse<"/v1/services/preflight/ai-jobs/{jobId}", "get">["data"];

const LABELS: Record<string, string> = {
  upscale_resolution_2x: "Upscale 2x (Lanczos)",
  upscale_resolution_4x: "Upscale 4x (Lanczos)",
  add_bleed: "Add bleed (mirrored edges)",
  remove_transparency: "Remove transparency",
  sharpen_edges: "Sharpen edges",
  resize_to_spec: "Resize to the canvas, upright",
  convert_color_mode: "Convert to CMYK",
  embed_fonts: "embed fonts",
  rgb_to_cmyk: "colours to CMYK",
  flatten_transparency: "flatten transparency",
  downsample_images: "images to 300 ppi",
};
const STATUS_TEXT: Record<FixJob["status"], string> = {
  analyzing: "Analysing the file…",
  applying: "Applying the fixes…",
  awaiting_approval: "Ready for your review",
  completed: "Fixed",
  failed: "Failed (tokens refunded)",
  rejected: "Rejected (tokens refunded)",
};
const WAITING = new Set(["analyzing", "applying"]);

/** Issue codes in the customer's words ("missing_bleed" -> "missing bleed"), as the report lists them. */
const issueWords = (codes: string[]) => codes.map((c) => (ISSUE_TITLES[c] ?? c.replace(/_/g, " ")).toLowerCase()).join(", ");

/** The flat price the API will debit for these fixes (contract 2.1), shown before paying. */
function priceOf(report: Report, fixTypes: string[], prepress: boolean): number {
  if (report.fileType !== "pdf") return FIX_PRICES.raster;
  return prepress || fixTypes.some((f) => f !== "add_bleed") ? FIX_PRICES.pdf_prepress : FIX_PRICES.pdf_bleed;
}

/** "Fix this file": the fixes the report's issues call for, the price, the job's progress, before/after, review, re-check, download. */
export function FixPanel({ report, focus }: { report: Report; focus?: { fixType: string; n: number } | null }) {
  const queryClient = useQueryClient();
  const derived = deriveFixes(report.issues);
  const [chosen, setChosen] = useState<string[]>(derived.fixTypes);
  const section = useRef<HTMLElement>(null);
  // An issue's "Fix with AI" button: bring the panel into view with that fix's choice focused.
  useEffect(() => {
    if (!focus) return;
    section.current?.scrollIntoView({ behavior: "smooth", block: "center" });
    const target = section.current?.querySelector<HTMLElement>(`input[data-fix="${focus.fixType}"]`) ?? section.current?.querySelector<HTMLElement>("button");
    target?.focus({ preventScroll: true });
  }, [focus]);
  const [review, setReview] = useState(false);
  const [startedJobId, setJobId] = useState<string | null>(null);
  // After a reload, the report's last job (running, waiting for review, or done) is shown
  // again with its Approve and Reject, instead of a second "Fix" button that would charge again.
  const earlier = useQuery({
    queryKey: ["ai-fix-job", "for-report", report.reportId],
    queryFn: async () => unwrap(await studioApi.GET("/v1/services/preflight/ai-jobs", { params: { query: { preflightReportId: report.reportId, limit: "1" } } })).data[0] ?? null,
    enabled: !startedJobId,
    staleTime: Infinity,
  });
  const resumable = earlier.data && earlier.data.status !== "failed" && earlier.data.status !== "rejected" ? earlier.data.jobId : null;
  const jobId = startedJobId ?? resumable;
  const prepress = report.fileType === "pdf" && derived.prepressSteps.length > 0 && (chosen.some((f) => f !== "add_bleed") || derived.fixTypes.length === 0);
  // One intent, one key, one charge: the key exists before the first request leaves and a second press is dropped in its own event.
  const action = useActionKey();
  const press = useOnePress();
  const create = useMutation({
    mutationFn: () =>
      action.run(async (idempotencyKey) =>
        unwrap(
          await studioApi.POST("/v1/services/preflight/ai-jobs", {
            params: { header: { "Idempotency-Key": idempotencyKey } },
            body: { preflightReportId: report.reportId, options: { ...(chosen.length && chosen.length !== derived.fixTypes.length ? { fixTypes: chosen as FixType[] } : {}), review } },
          }),
        ),
      ),
    onSuccess: (res) => {
      setJobId(res.data.jobId);
      void queryClient.invalidateQueries({ queryKey: ["wallet"] });
    },
  });
  const job = useQuery({
    queryKey: ["ai-fix-job", jobId],
    queryFn: async () => unwrap(await studioApi.GET("/v1/services/preflight/ai-jobs/{jobId}", { params: { path: { jobId: jobId! } } })).data,
    enabled: !!jobId,
    staleTime: 0,
    refetchInterval: (q) => (!q.state.data || WAITING.has(q.state.data.status) ? 1_500 : false),
  });
  const decide = useMutation({
    mutationFn: async (action: "approve" | "reject") => unwrap(await studioApi.POST(`/v1/services/preflight/ai-jobs/{jobId}/${action}`, { params: { path: { jobId: jobId! } }, body: {} })),
    onSuccess: (res) => {
      queryClient.setQueryData(["ai-fix-job", jobId], res.data);
      void queryClient.invalidateQueries({ queryKey: ["wallet"] });
    },
  });

  // The re-check is a new report: the recent list shows it as soon as it exists.
  const recheckId = job.data?.recheck?.reportId;
  useEffect(() => {
    if (recheckId) void queryClient.invalidateQueries({ queryKey: RECENT_REPORTS_KEY });
  }, [recheckId, queryClient]);

  if (derived.fixTypes.length === 0 && derived.prepressSteps.length === 0) return null;
  const price = priceOf(report, chosen, prepress);
  const j = job.data;
  const error = (create.error ?? decide.error) as ApiRequestError | Error | null;

  return (
    <section ref={section} aria-label="Fix this file" data-testid="fix-panel" data-focus={focus?.fixType ?? ""} className="mt-6 rounded-md border border-slate-200 p-4">
      <h3 className="text-base font-semibold text-slate-900">Fix this file</h3>
      {!jobId && earlier.isPending ? null : !jobId ? (
        <div className="mt-2 space-y-3 text-sm">
          <ul className="space-y-1">
            {derived.fixTypes.map((f) => (
              <li key={f}>
                <label className="flex items-center gap-2">
                  <input type="checkbox" data-fix={f} checked={chosen.includes(f)} onChange={(e) => setChosen((c) => (e.target.checked ? [...c, f] : c.filter((x) => x !== f)))} />
                  {LABELS[f] ?? f}
                </label>
              </li>
            ))}
            {report.fileType === "pdf" && derived.prepressSteps.length > 0 ? (
              <li className="text-slate-600">Print conversion (Ghostscript): {derived.prepressSteps.map((s) => LABELS[s] ?? s).join(", ")}</li>
            ) : null}
          </ul>
          <label className="flex items-center gap-2 text-slate-700">
            <input type="checkbox" checked={review} onChange={(e) => setReview(e.target.checked)} /> Let me review before/after first
          </label>
          <Button type="button" disabled={create.isPending || (chosen.length === 0 && !prepress)} onClick={() => press(() => create.mutateAsync())}>
            {create.isPending ? "Starting…" : `Fix for ${price} tokens`}
          </Button>
          <p className="text-xs text-slate-500">One flat price per job, taken when it starts; refunded if the fix fails or you reject it.</p>
        </div>
      ) : (
        <div className="mt-2 space-y-3 text-sm">
          <p data-testid="fix-status" className="font-medium text-slate-800">
            {j ? STATUS_TEXT[j.status] : "Starting…"}
            {j && WAITING.has(j.status) ? <span className="ml-2 inline-block h-3 w-3 animate-spin rounded-full border-2 border-slate-300 border-t-slate-700" aria-hidden /> : null}
          </p>
          {j?.preview.beforeUrl || j?.preview.afterUrl ? <FixPreviews preview={j.preview} /> : null}
          {j?.status === "awaiting_approval" ? (
            <div className="space-y-2">
              <ul className="list-disc pl-5 text-slate-700">
                {(j.suggestions ?? []).map((s) => (
                  <li key={s.fixType}>{s.description}</li>
                ))}
              </ul>
              <div className="flex gap-2">
                <ReviewDecision disabled={decide.isPending} onDecide={(action) => decide.mutate(action)} />
              </div>
            </div>
          ) : null}
          {j?.status === "completed" ? (
            <div className="space-y-2">
              <ul className="list-disc pl-5 text-slate-700">
                {(j.fixesApplied ?? []).filter((f) => !f.skipped).map((f) => (
                  <li key={f.fixType}>{f.description}</li>
                ))}
              </ul>
              {j.recheck ? (
                <p data-testid="fix-recheck">
                  Checked again: <StatusBadge status={j.recheck.status as Report["status"]} />
                  {j.recheck.resolved.length ? ` · fixed: ${issueWords(j.recheck.resolved)}` : ""}
                  {j.recheck.remaining.length ? ` · still there: ${issueWords(j.recheck.remaining)}` : " · nothing left to fix"}
                  {" · "}
                  {/* A link, so it adds a history entry: Back returns to this report. */}
                  <Link href={`/preflight?report=${encodeURIComponent(j.recheck.reportId)}`} scroll={false} className="text-brand-700 hover:underline" data-testid="fix-recheck-link">
                    open the re-check report
                  </Link>
                </p>
              ) : null}
              {j.recheck?.notFixable?.length ? (
                <div data-testid="fix-not-fixable" className="rounded-md border border-amber-200 bg-amber-50 p-2 text-amber-900">
                  <p className="font-medium">Not fixed: these need a change in the design itself.</p>
                  <ul className="list-disc pl-5">
                    {j.recheck.notFixable.map((n) => (
                      <li key={`${n.code}-${n.page ?? ""}`}>{n.message}</li>
                    ))}
                  </ul>
                </div>
              ) : null}
              {j.correctedFileUrl ? (
                <a data-testid="fix-download" className="inline-block rounded-md bg-slate-900 px-3 py-2 text-sm font-medium text-white" href={sameOriginFileUrl(j.correctedFileUrl)} download>
                  Download the fixed file
                </a>
              ) : null}
            </div>
          ) : null}
          {j?.status === "failed" ? <p className="text-red-700">{j.errorMessage}</p> : null}
        </div>
      )}
      {error ? (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {error.message}
        </p>
      ) : null}
    </section>
  );
}
