"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
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
 * while the preview job renders them).
 */
export function JobGalleriesPanel({ agencyId, jobId }: { agencyId: number; jobId: number }) {
  const queries = useQueryClient();
  const path = { agencyId: String(agencyId), jobId: String(jobId) };
  const key = ["studio", "galleries", jobId];
  const action = useActionKey();
  const list = useQuery({
    queryKey: key,
    queryFn: async () => unwrap(await studioApi.GET("/v1/services/studio/agencies/{agencyId}/jobs/{jobId}/galleries", { params: { path, query: { limit: "100" } } })),
    // While previews are rendering, follow them.
    refetchInterval: (q) => (q.state.data?.data.some((g) => g.previews_ready < g.photo_count) ? 2000 : false),
  });
  const run = useMutation({
    mutationFn: (what: "publish" | "close" | "reopen") =>
      action.run(async (idempotencyKey) => {
        const opts = { params: { path, header: { "Idempotency-Key": idempotencyKey } } };
        if (what === "publish") return unwrap(await studioApi.POST("/v1/services/studio/agencies/{agencyId}/jobs/{jobId}/galleries", { ...opts, body: {} }));
        if (what === "close") return unwrap(await studioApi.POST("/v1/services/studio/agencies/{agencyId}/jobs/{jobId}/galleries/close", opts));
        return unwrap(await studioApi.POST("/v1/services/studio/agencies/{agencyId}/jobs/{jobId}/galleries/reopen", { ...opts, body: {} }));
      }),
    onSettled: () => queries.invalidateQueries({ queryKey: key }),
  });
  const galleries = list.data?.data ?? [];
  const published = galleries.some((g) => g.status === "published");
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
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm" data-testid="gallery-codes">
              <thead className="text-xs text-slate-500 uppercase">
                <tr>
                  <th className="py-2 pr-3">Child</th>
                  <th className="py-2 pr-3">Access code</th>
                  <th className="py-2 pr-3">Photos</th>
                  <th className="py-2 pr-3">Status</th>
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
