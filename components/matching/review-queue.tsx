"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useState } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { PaginationControls } from "@/components/ui/pagination-controls";
import { QueryError } from "@/components/ui/query-error";
import { studioApi, unwrap } from "@/lib/client/typed-api";
import { errorMessage } from "@/components/agencies/api-errors";
import type { Subject } from "@/components/agencies/types";
import { FaceCloseUp, FacePhoto } from "./face-photo";
import { RosterPortraits } from "./roster-portraits";
import { DECISION_LABEL, REVIEW_REASON, matchingKeys, type Decision, type MatchFace, type MatchJob, type MatchResult } from "./types";

const PAGE = 50;
type Item = { result: MatchResult; face: MatchFace };
type Review = { action: "accept" } | { action: "assign"; subject_id: string } | { action: "nobody" } | { action: "not_this_person" } | { action: "reset" };

/**
 * One queue of faces (needs review, unmatched, or matched for spot checks), kept
 * as it was loaded while the photographer works through it, so a decision never
 * makes the list jump. Keyboard: A accept, C not this person (the next candidate
 * is shown for confirmation; nothing is filed under them until accepted), X nobody,
 * U undo, J / → next, K / ← previous.
 */
export function ReviewQueue({ job, queue, roster }: { job: MatchJob; queue: Decision; roster: Map<string, Subject> | undefined }) {
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  // Loaded once the job has ended (and again as photos come in while it runs), then kept as it is.
  const ended = job.status === "completed" || job.status === "failed";
  const results = useQuery({
    queryKey: [...matchingKeys.results(job.id, queue, page), ended ? "ended" : job.processed_files],
    queryFn: async () => unwrap(await studioApi.GET("/v1/services/studio/matching/jobs/{matchJobId}/results", { params: { path: { matchJobId: String(job.id) }, query: { decision: queue, limit: String(PAGE), page: String(page) } } })),
    staleTime: Infinity,
  });
  const items = useMemo<Item[]>(
    () => (results.data?.data ?? []).flatMap((result) => (result.faces.length ? result.faces.filter((f) => f.decision === queue).map((face) => ({ result, face })) : [])),
    [results.data, queue],
  );
  const noFace = (results.data?.data ?? []).filter((r) => r.faces.length === 0);
  const [at, setAt] = useState(0);
  const [changed, setChanged] = useState<Record<string, MatchFace>>({});
  const [undo, setUndo] = useState<{ index: number; faceId: string }[]>([]);
  const current = items[at];
  const face = current ? (changed[current.face.id] ?? current.face) : undefined;

  const save = useMutation({
    mutationFn: async ({ faceId, body }: { faceId: string; body: Review; index: number }) =>
      unwrap(await studioApi.PATCH("/v1/services/studio/matching/jobs/{matchJobId}/faces/{faceId}", { params: { path: { matchJobId: String(job.id), faceId } }, body })),
    onSuccess: (res, { faceId, body, index }) => {
      setChanged((c) => ({ ...c, [faceId]: res.face }));
      queryClient.setQueryData<MatchJob>(matchingKeys.job(job.id), (old) => (old ? { ...old, ...res.counts } : old));
      if (body.action !== "reset") setUndo((u) => [...u, { index, faceId }]);
      // "Not this person" stays on the face: the next candidate waits for the reviewer's accept.
      if (body.action !== "reset" && body.action !== "not_this_person") setAt((i) => Math.min(i + 1, Math.max(items.length - 1, 0)));
    },
  });

  // Who is shown now: the proposal, else the engine's best under the threshold.
  const shownId = face ? (face.subject_id ?? (face.decision === "unmatched" && face.review ? null : (face.candidate?.subject_id ?? null))) : null;

  const act = useCallback(
    (key: string) => {
      if (!current || !face || save.isPending) return;
      const send = (body: Review) => save.mutate({ faceId: face.id, body, index: at });
      switch (key) {
        case "a":
          if (face.subject_id) send({ action: "accept" });
          else if (shownId) send({ action: "assign", subject_id: shownId });
          break;
        case "c":
          // The server proposes the next candidate (needs review) or leaves the face unmatched; never files it under them.
          if (shownId) send({ action: "not_this_person" });
          break;
        case "x":
          send({ action: "nobody" });
          break;
        case "u": {
          const last = undo.at(-1);
          if (!last) break;
          setUndo((u) => u.slice(0, -1));
          setAt(last.index);
          save.mutate({ faceId: last.faceId, body: { action: "reset" }, index: last.index });
          break;
        }
        case "j":
        case "ArrowRight":
          setAt((i) => Math.min(i + 1, items.length - 1));
          break;
        case "k":
        case "ArrowLeft":
          setAt((i) => Math.max(i - 1, 0));
          break;
      }
    },
    [current, face, save, at, shownId, undo, items.length],
  );

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      if (target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA")) return;
      if (e.metaKey || e.ctrlKey || e.altKey) return;
      const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
      if (["a", "c", "x", "u", "j", "k", "ArrowRight", "ArrowLeft"].includes(key)) {
        e.preventDefault();
        act(key);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [act]);

  if (results.error) return <QueryError title="Could not load the photos." error={results.error} onRetry={() => void results.refetch()} />;
  if (!results.data) return <p className="text-sm text-slate-500">Loading…</p>;
  const pager = (
    <PaginationControls
      meta={results.data.meta}
      label="Photo pages"
      onPageChange={(p) => {
        setPage(p);
        setAt(0);
      }}
    />
  );
  if (!current || !face) {
    return (
      <Card>
        <p className="text-sm text-slate-600">{queue === "needs_review" ? "Nothing left to review here." : `No ${DECISION_LABEL[queue].toLowerCase()} faces on this page.`}</p>
        {noFace.length ? <p className="mt-2 text-sm text-slate-500">{noFace.length} photo(s) here have no face at all: {noFace.map((r) => r.filename).join(", ")}.</p> : null}
        {pager}
      </Card>
    );
  }
  const shown = shownId ? roster?.get(shownId) : undefined;
  const offered = face.review === "rejected" && face.subject_id != null;
  const width = current.result.width ?? 1;
  const height = current.result.height ?? 1;
  return (
    <Card>
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2 text-sm text-slate-600">
        <span data-testid="queue-position">
          Face {at + 1} of {items.length} · {current.result.filename}
        </span>
        {pager}
      </div>
      {/* On a phone the face close-up, the verdict and the buttons come first, the whole photo after them (order-last): the buttons sit by the face. */}
      <div className="grid gap-4 lg:grid-cols-[3fr_2fr]">
        {current.result.image_url ? (
          <div className="order-last lg:order-none">
            <FacePhoto
              src={current.result.image_url}
              width={width}
              height={height}
              box={face.face_box}
              others={current.result.faces.filter((f) => f.id !== face.id).map((f) => f.face_box)}
              alt={current.result.filename}
            />
          </div>
        ) : (
          <p className="text-sm text-slate-500">The photo was deleted.</p>
        )}
        <div className="space-y-3">
          <div className="flex flex-wrap gap-3 text-xs text-slate-500">
            {current.result.image_url ? (
              // As wide as the picture: a long name in a caption wraps under it instead of pushing the pair apart.
              <figure className="w-min">
                <FaceCloseUp src={current.result.image_url} width={width} height={height} box={face.face_box} size={144} />
                <figcaption className="mt-1">In this photo</figcaption>
              </figure>
            ) : null}
            <figure className="w-min">
              <RosterPortraits agencyId={job.agency_id} subject={shown} size={144} />
              <figcaption className="mt-1">Roster portrait{shown ? ` · ${shown.name}` : ""}</figcaption>
            </figure>
          </div>
          <div data-testid="face-verdict">
            <p className="text-base font-semibold text-slate-900">
              {!shownId ? "Nobody on the roster" : `${offered ? "Is this " : ""}${shown?.name ?? face.name ?? "?"} (${shown?.student_id ?? face.student_id ?? "?"})${offered ? "?" : ""}`}
            </p>
            <p className="text-sm text-slate-600">
              {DECISION_LABEL[face.decision]}
              {face.review === "rejected" ? (offered ? " · you said not the first candidate: accept to confirm this one" : " · you said not this person: nobody else to propose") : face.review ? ` · by you (${face.review})` : " · by the engine"}
              {face.candidate ? ` · similarity ${face.candidate.score.toFixed(2)} to ${face.candidate.name ?? face.candidate.student_id}` : ""}
              {face.runner_up ? ` · runner-up ${face.runner_up.name ? `${face.runner_up.name} (${face.runner_up.student_id ?? "?"})` : (face.runner_up.student_id ?? "?")} ${face.runner_up.score.toFixed(2)}` : ""}
            </p>
            {/* The engine's reason only while its decision stands: after a decision it would be stale. */}
            {face.review_reason && face.engine_decision === "needs_review" && !face.review ? (
              <p className="text-sm font-medium text-amber-800" data-testid="review-reason">
                Why: {REVIEW_REASON[face.review_reason]}
              </p>
            ) : null}
          </div>
          {/* The decision first, right under the verdict; moving between faces after it. */}
          <div className="flex flex-wrap gap-2">
            <Button className="min-h-11" onClick={() => act("a")} disabled={save.isPending || !shownId}>
              {offered ? `Confirm ${shown?.name ?? face.name ?? "this child"}` : "Accept"} <kbd className="key-hint ml-1 text-xs opacity-70">A</kbd>
            </Button>
            <Button variant="secondary" className="min-h-11" onClick={() => act("c")} disabled={save.isPending || !shownId}>
              Not this person: next candidate <kbd className="key-hint ml-1 text-xs opacity-70">C</kbd>
            </Button>
            <Button variant="secondary" className="min-h-11" onClick={() => act("x")} disabled={save.isPending}>
              Nobody <kbd className="key-hint ml-1 text-xs opacity-70">X</kbd>
            </Button>
            <Button variant="secondary" className="min-h-11" onClick={() => act("u")} disabled={save.isPending || undo.length === 0}>
              Undo <kbd className="key-hint ml-1 text-xs opacity-70">U</kbd>
            </Button>
          </div>
          <div className="flex flex-wrap gap-2">
            <Button variant="secondary" className="min-h-11" onClick={() => act("k")} disabled={at === 0} aria-label="Previous face">
              ← Previous <kbd className="key-hint ml-1 text-xs opacity-70">K</kbd>
            </Button>
            <Button variant="secondary" className="min-h-11" onClick={() => act("j")} disabled={at >= items.length - 1} aria-label="Next face">
              Next → <kbd className="key-hint ml-1 text-xs opacity-70">J</kbd>
            </Button>
          </div>
          <label className="block text-sm text-slate-700">
            Someone else:
            <select
              className="mt-1 block w-full rounded-md border border-slate-300 px-2 py-1 text-sm sm:ml-2 sm:mt-0 sm:inline-block sm:w-auto sm:max-w-full"
              value=""
              onChange={(e) => e.target.value && save.mutate({ faceId: face.id, body: { action: "assign", subject_id: e.target.value }, index: at })}
            >
              <option value="">choose a child…</option>
              {[...(roster?.values() ?? [])].map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name} ({s.student_id})
                </option>
              ))}
            </select>
          </label>
          <p className="text-xs text-slate-500">J / → next · K / ← previous. Decisions are saved at once and kept when the photos are matched again.</p>
          {save.error ? (
            <p role="alert" className="text-sm text-red-600">
              {errorMessage(save.error)}
            </p>
          ) : null}
        </div>
      </div>
    </Card>
  );
}
