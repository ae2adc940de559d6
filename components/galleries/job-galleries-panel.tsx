"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Card } from "@/components/ui/card";
import { Button } from "@/components/ui/button";
import { EmptyState, ListSkeleton } from "@/components/ui/list-states";
import { QueryError } from "@/components/ui/query-error";
import { errorMessage } from "@/components/agencies/api-errors";
import { useActionKey } from "@/lib/client/idempotency-key";
import { studioApi, unwrap } from "@/lib/client/typed-api";

/**
 * The job page's parent galleries: publish (again, after more sorting), close,
 * reopen, and each child's access code with how many previews are ready (live
 * while the preview job renders them), and whether it was e-mailed to the parent.
 */
export function JobGalleriesPanel({ agencyId, jobId }: { agencyId: number; jobId: number }) {
  const queries = useQueryClient();
  const path = { agencyId: String(agencyId), jobId: String(jobId) };
  const key = ["studio", "galleries", jobId];
  const action = useActionKey();
  const [notice, setNotice] = useState<string | null>(null);
  /** The yearbook deadline typed here (a day, yyyy-mm-dd; "" for none), sent with the next publish; null: untouched, the job keeps its own. */
  const [deadlineDay, setDeadlineDay] = useState<string | null>(null);
  const list = useQuery({
    queryKey: key,
    queryFn: async () => unwrap(await studioApi.GET("/v1/services/studio/agencies/{agencyId}/jobs/{jobId}/galleries", { params: { path, query: { limit: "100" } } })),
    // While previews are rendering, follow them.
    refetchInterval: (q) => (q.state.data?.data.some((g) => g.previews_ready < g.photo_count) ? 2000 : false),
  });
  const run = useMutation({
    mutationFn: (what: "publish" | "close" | "reopen" | "send-codes" | { resend: string }) =>
      action.run(async (idempotencyKey) => {
        const opts = { params: { path, header: { "Idempotency-Key": idempotencyKey } } };
        if (what === "send-codes" || typeof what === "object") {
          const body = typeof what === "object" ? { resend: true, subject_ids: [what.resend] } : {};
          const sent = unwrap(await studioApi.POST("/v1/services/studio/agencies/{agencyId}/jobs/{jobId}/galleries/send-codes", { ...opts, body }));
          setNotice(`${sent.emailed} code${sent.emailed === 1 ? "" : "s"} e-mailed.`);
          return sent;
        }
        if (what === "publish") {
          // The end of the chosen day where the studio is.
          const body = deadlineDay === null ? {} : { yearbook_deadline: deadlineDay ? new Date(`${deadlineDay}T23:59:59`).toISOString() : null };
          const published = unwrap(await studioApi.POST("/v1/services/studio/agencies/{agencyId}/jobs/{jobId}/galleries", { ...opts, body }));
          setDeadlineDay(null);
          setNotice(published.codes_emailed ? `Published; ${published.codes_emailed} code${published.codes_emailed === 1 ? "" : "s"} e-mailed to parents.` : "Published.");
          return published;
        }
        if (what === "close") return unwrap(await studioApi.POST("/v1/services/studio/agencies/{agencyId}/jobs/{jobId}/galleries/close", opts));
        return unwrap(await studioApi.POST("/v1/services/studio/agencies/{agencyId}/jobs/{jobId}/galleries/reopen", { ...opts, body: {} }));
      }),
    onSettled: () => queries.invalidateQueries({ queryKey: key }),
  });
  const galleries = list.data?.data ?? [];
  const published = galleries.some((g) => g.status === "published");
  // Who the Send codes button reaches: open galleries with a parent address whose code was never e-mailed.
  const unsent = galleries.filter((g) => g.kind === "subject" && g.status === "published" && g.parent_email && g.code_emails === 0).length;
  const withoutEmail = galleries.filter((g) => g.kind === "subject" && !g.parent_email).length;
  const children = galleries.filter((g) => g.kind === "subject");
  const yearbookDeadline = children.find((g) => g.yearbook_deadline)?.yearbook_deadline ?? null;
  const poses = children.filter((g) => g.yearbook_pose_chosen).length;
  const ready = galleries.reduce((n, g) => n + g.previews_ready, 0);
  const total = galleries.reduce((n, g) => n + g.photo_count, 0);
  return (
    <Card
      title="Parent galleries"
      actions={
        <div className="flex flex-wrap gap-2">
          <Button type="button" onClick={() => run.mutate("publish")} disabled={run.isPending}>
            {galleries.length ? "Publish again" : "Publish galleries"}
          </Button>
          {published ? (
            <Button type="button" variant="secondary" onClick={() => run.mutate("send-codes")} disabled={run.isPending || unsent === 0}>
              {unsent ? `E-mail codes to ${unsent} parent${unsent === 1 ? "" : "s"}` : "Every code e-mailed"}
            </Button>
          ) : null}
          {published ? (
            <Button type="button" variant="danger" onClick={() => run.mutate("close")} disabled={run.isPending}>
              Close
            </Button>
          ) : galleries.length ? (
            <Button type="button" variant="secondary" onClick={() => run.mutate("reopen")} disabled={run.isPending}>
              Reopen
            </Button>
          ) : null}
        </div>
      }
    >
      <p className="mb-3 text-sm text-slate-600">
        Each child gets a private gallery of the photos sorted to them, opened with their code at{" "}
        <a className="text-brand-700 underline" href="/g" target="_blank" rel="noreferrer">
          /g
        </a>
        . Publishing is free; publishing again after more sorting adds photos and keeps the codes.
      </p>
      <label className="mb-3 flex flex-wrap items-center gap-2 text-sm">
        <span>Parents choose the yearbook pose until</span>
        <input
          type="date"
          className="rounded-md border border-slate-300 px-2 py-1"
          value={deadlineDay ?? (yearbookDeadline ? localDay(yearbookDeadline) : "")}
          onChange={(e) => setDeadlineDay(e.target.value)}
          aria-label="Yearbook pose deadline"
        />
        <span className="text-slate-500">{deadlineDay !== null ? "(saved with the next publish)" : yearbookDeadline ? "" : "(empty: no choice; the PSPA export takes each child's first portrait)"}</span>
      </label>
      {yearbookDeadline ? (
        <p className="mb-3 text-sm" data-testid="yearbook-poses">
          Yearbook poses chosen: {poses} of {children.length} (parents choose until {new Date(yearbookDeadline).toLocaleDateString()}). The PSPA export uses them; the others get their first portrait.
        </p>
      ) : null}
      {notice && !run.isError ? (
        <p role="status" className="mb-3 text-sm text-emerald-700">
          {notice}
        </p>
      ) : null}
      {run.isError ? (
        <p role="alert" className="mb-3 text-sm text-red-700">
          {errorMessage(run.error) ?? "That did not work."}
        </p>
      ) : null}
      {list.isPending ? <ListSkeleton label="Loading galleries" rows={3} /> : null}
      {list.isError ? <QueryError title="Galleries could not be loaded:" error={list.error} onRetry={() => void list.refetch()} /> : null}
      {list.data && galleries.length === 0 ? <EmptyState>No galleries yet: sort the job&apos;s photos, then publish.</EmptyState> : null}
      {galleries.length ? (
        <>
          <div className="mb-2" role="status">
            <div className="h-2 overflow-hidden rounded bg-slate-100" aria-hidden>
              <div className="h-full bg-brand-600 transition-all" style={{ width: `${total ? Math.round((ready / total) * 100) : 100}%` }} />
            </div>
            <p className="mt-1 text-xs text-slate-500">
              {ready} of {total} previews ready
            </p>
          </div>
          <p className="mb-2 text-sm">
            <a className="text-brand-700 underline" href={`/v1/services/studio/agencies/${agencyId}/jobs/${jobId}/galleries/flyer`} download>
              Download the class flyer (PDF)
            </a>{" "}
            <span className="text-slate-500">: one cut-apart slip per child with the code and a QR to the gallery.</span>
          </p>
          <p className="mb-2 text-sm text-slate-600">
            Publishing e-mails each child&apos;s code once to the parent e-mail on the roster.
            {withoutEmail ? ` ${withoutEmail} child${withoutEmail === 1 ? " has" : "ren have"} no parent e-mail: add it on the roster, or hand out the flyer.` : ""}
          </p>
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm" data-testid="gallery-codes">
              <thead className="text-xs text-slate-500 uppercase">
                <tr>
                  <th className="py-2 pr-3">Child</th>
                  <th className="py-2 pr-3">Access code</th>
                  <th className="py-2 pr-3">Photos</th>
                  <th className="py-2 pr-3">Status</th>
                  <th className="py-2 pr-3">Code e-mail</th>
                  <th className="py-2">Open until</th>
                </tr>
              </thead>
              <tbody>
                {galleries.map((g) => (
                  <tr key={g.id} className="border-t border-slate-100">
                    <td className="py-2 pr-3">{g.kind === "group" ? "Group photos" : `${g.name ?? ""} (${g.student_id ?? ""})`}</td>
                    <td className="py-2 pr-3 font-mono">{g.access_code ?? "every code"}</td>
                    <td className="py-2 pr-3">
                      {g.previews_ready}/{g.photo_count}
                    </td>
                    <td className="py-2 pr-3">{g.status}</td>
                    <td className="py-2 pr-3" data-testid="code-mail">
                      {g.kind === "group" ? (
                        "—"
                      ) : !g.parent_email ? (
                        <span className="text-slate-500">no parent e-mail</span>
                      ) : g.code_emailed_at ? (
                        <span title={`to ${g.code_emailed_to ?? ""}`}>
                          sent {new Date(g.code_emailed_at).toLocaleDateString()}
                          {g.code_emails > 1 ? ` (${g.code_emails}×)` : ""}{" "}
                          {g.status === "published" && g.subject_id ? (
                            <button type="button" className="text-brand-700 underline" disabled={run.isPending} onClick={() => run.mutate({ resend: g.subject_id! })}>
                              send again
                            </button>
                          ) : null}
                        </span>
                      ) : (
                        <span className="text-amber-700">not sent</span>
                      )}
                    </td>
                    <td className="py-2">{g.expires_at ? new Date(g.expires_at).toLocaleDateString() : "—"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : null}
    </Card>
  );
}

/** An instant as the yyyy-mm-dd day it falls on here (what a date input shows). */
function localDay(iso: string): string {
  const d = new Date(iso);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
}
