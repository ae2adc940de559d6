"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { PaginationControls } from "@/components/ui/pagination-controls";
import { QueryError } from "@/components/ui/query-error";
import { studioApi, unwrap } from "@/lib/client/typed-api";
import { errorMessage } from "@/components/agencies/api-errors";
import type { Subject } from "@/components/agencies/types";
import { FaceThumb } from "./face-photo";
import { RosterPortraits } from "./roster-portraits";
import { matchingKeys, type FaceGroup, type MatchJob } from "./types";

const PAGE = 10;
type Decision = { action: "assign"; subject_id: string } | { action: "nobody" };
type Done = { group: string; faceIds: string[]; label: string };

/**
 * Review by group: faces of the job that look like one person, side by side with
 * the child they are offered to, filed with one decision (undo puts them back).
 * The groups stay as loaded while the reviewer works, so nothing jumps.
 */
export function GroupReview({ job, roster }: { job: MatchJob; roster: Map<string, Subject> | undefined }) {
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const groups = useQuery({
    queryKey: matchingKeys.groups(job.id, page),
    queryFn: async () => unwrap(await studioApi.GET("/v1/services/studio/matching/jobs/{matchJobId}/groups", { params: { path: { matchJobId: String(job.id) }, query: { limit: String(PAGE), page: String(page) } } })),
    staleTime: Infinity,
  });
  const [done, setDone] = useState<Record<string, Done>>({});
  const send = useMutation({
    mutationFn: async ({ group, body }: { group: string; body: Decision | { action: "reset"; face_ids: string[] }; label: string }) =>
      unwrap(await studioApi.PATCH("/v1/services/studio/matching/jobs/{matchJobId}/groups/{group}", { params: { path: { matchJobId: String(job.id), group } }, body })),
    onSuccess: (res, { group, body, label }) => {
      queryClient.setQueryData<MatchJob>(matchingKeys.job(job.id), (old) => (old ? { ...old, ...res.counts } : old));
      // The per-face queues were loaded before: load them again when opened.
      void queryClient.invalidateQueries({ queryKey: ["matching", "job", job.id, "results"] });
      setDone((d) => {
        const next = { ...d };
        if (body.action === "reset") delete next[group];
        else next[group] = { group, faceIds: res.face_ids, label };
        return next;
      });
    },
  });

  if (groups.error) return <QueryError title="Could not load the groups." error={groups.error} onRetry={() => void groups.refetch()} />;
  if (!groups.data) return <p className="text-sm text-slate-500">Loading…</p>;
  if (groups.data.data.length === 0) {
    return (
      <Card>
        <p className="text-sm text-slate-600">No groups to review: every face that looks like another one in this job is filed.</p>
      </Card>
    );
  }
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2 text-sm text-slate-600">
        <p>Faces that look like one person. One decision files every face of a group that nobody has decided yet.</p>
        <PaginationControls meta={groups.data.meta} label="Group pages" onPageChange={setPage} />
      </div>
      {send.error ? (
        <p role="alert" className="text-sm text-red-600">
          {errorMessage(send.error)}
        </p>
      ) : null}
      {groups.data.data.map((g, i) => (
        <GroupCard
          key={g.group}
          n={(groups.data.meta.current_page - 1) * PAGE + i + 1}
          job={job}
          group={g}
          roster={roster}
          done={done[g.group]}
          busy={send.isPending}
          onDecide={(body, label) => send.mutate({ group: g.group, body, label })}
          onUndo={(d) => send.mutate({ group: g.group, body: { action: "reset", face_ids: d.faceIds }, label: "" })}
        />
      ))}
    </div>
  );
}

function GroupCard({
  n,
  job,
  group,
  roster,
  done,
  busy,
  onDecide,
  onUndo,
}: {
  n: number;
  job: MatchJob;
  group: FaceGroup;
  roster: Map<string, Subject> | undefined;
  done: Done | undefined;
  busy: boolean;
  onDecide: (body: Decision, label: string) => void;
  onUndo: (done: Done) => void;
}) {
  const s = group.suggestion;
  const offered = s ? roster?.get(s.subject_id) : undefined;
  const who = (name: string | null, studentId: string | null) => `${name ?? "?"} (${studentId ?? "?"})`;
  return (
    <Card>
      <section aria-label={`Group ${n}`} data-testid="face-group">
        <div className="mb-2 flex flex-wrap items-baseline justify-between gap-2">
          <h2 className="text-base font-semibold text-slate-900">
            {group.faces.length} faces alike · {group.open_faces} to decide
          </h2>
          {s ? (
            <p className="text-sm text-slate-600" data-testid="group-suggestion">
              {s.reason === "filed" ? `${s.faces} of them already filed under ${who(s.name, s.student_id)}` : `The engine's closest child for ${s.faces}: ${who(s.name, s.student_id)}`}
            </p>
          ) : (
            <p className="text-sm text-slate-600">Nobody on the roster looks close: a child without a portrait, or a guest.</p>
          )}
        </div>
        <div className="flex flex-col gap-4 sm:flex-row">
          <ul className="grid flex-1 grid-cols-3 gap-2 sm:grid-cols-4 lg:grid-cols-6">
            {group.faces.map((f) => (
              <li key={f.id} className={`rounded-md p-1 ${f.open && !done ? "ring-2 ring-amber-400" : "opacity-70"}`}>
                {f.thumbnail_url ? (
                  <FaceThumb src={f.thumbnail_url} width={f.width ?? 1} height={f.height ?? 1} box={f.face_box} alt={`Face in ${f.filename}`} />
                ) : (
                  <div className="aspect-square w-full rounded bg-slate-100 text-xs text-slate-500">photo deleted</div>
                )}
                <p className="mt-1 truncate text-xs text-slate-500" title={f.filename}>
                  {f.subject ? `✓ ${f.subject.name ?? f.subject.student_id}` : f.open ? f.filename : (f.review ?? f.decision)}
                </p>
              </li>
            ))}
          </ul>
          {offered ? (
            <figure className="w-min text-xs text-slate-500">
              <RosterPortraits agencyId={job.agency_id} subject={offered} size={120} />
              <figcaption className="mt-1">Roster · {offered.name}</figcaption>
            </figure>
          ) : null}
        </div>
        {done ? (
          <div className="mt-3 flex flex-wrap items-center gap-3" role="status">
            <p className="text-sm font-medium text-emerald-800">
              {done.faceIds.length} face{done.faceIds.length === 1 ? "" : "s"} filed as {done.label}.
            </p>
            <Button variant="secondary" className="min-h-11" disabled={busy} onClick={() => onUndo(done)}>
              Undo
            </Button>
          </div>
        ) : (
          <div className="mt-3 flex flex-wrap items-center gap-2">
            {offered ? (
              <Button className="min-h-11" disabled={busy} onClick={() => onDecide({ action: "assign", subject_id: offered.id }, offered.name)}>
                All are {offered.name}
              </Button>
            ) : null}
            <label className="text-sm text-slate-700">
              <span className="sr-only">All are someone else</span>
              <select
                className="min-h-11 rounded-md border border-slate-300 px-2 text-sm"
                value=""
                disabled={busy}
                onChange={(e) => {
                  const child = roster?.get(e.target.value);
                  if (child) onDecide({ action: "assign", subject_id: child.id }, child.name);
                }}
              >
                <option value="">{offered ? "Someone else…" : "All are…"}</option>
                {[...(roster?.values() ?? [])].map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name} ({c.student_id})
                  </option>
                ))}
              </select>
            </label>
            <Button variant="secondary" className="min-h-11" disabled={busy} onClick={() => onDecide({ action: "nobody" }, "nobody on the roster")}>
              Nobody on the roster
            </Button>
          </div>
        )}
      </section>
    </Card>
  );
}
