"use client";

import Link from "next/link";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { studioApi, unwrap } from "@/lib/client/typed-api";
import { errorMessage } from "@/components/agencies/api-errors";
import type { AgencyDetail } from "@/components/agencies/types";
import { ConsentSwitch } from "./consent-switch";
import { isReferenceTask, type ReferenceProblem, type ReferencesAnswer, type ReferenceTask } from "./types";

const REASON: Record<string, string> = {
  no_face: "no face found",
  multiple_faces: "several faces",
  unreadable: "photo unreadable",
  fetch_failed: "photo could not be downloaded",
  url_not_allowed: "photo address refused",
  photo_missing: "photo missing",
  possible_duplicate: "same person as another entry?",
};

/** Step 1: the agency's consent switch and its reference embeddings (free). */
export function ReferencesPanel({ agency }: { agency: AgencyDetail }) {
  const [answer, setAnswer] = useState<ReferencesAnswer | null>(null);
  const [taskId, setTaskId] = useState<string | null>(null);
  const build = useMutation({
    mutationFn: async (): Promise<ReferencesAnswer> => unwrap(await studioApi.POST("/v1/services/studio/matching/references", { body: { agency_id: agency.id } })),
    onSuccess: (res) => {
      setAnswer(res);
      setTaskId(res.status === "queued" ? res.task_id : null);
    },
  });
  const task = useQuery({
    queryKey: ["matching", "references-task", taskId],
    enabled: taskId !== null,
    queryFn: async (): Promise<ReferenceTask> => {
      const polled = unwrap(await studioApi.GET("/v1/services/studio/jobs/{taskId}", { params: { path: { taskId: taskId! } } }));
      if (!isReferenceTask(polled)) throw new Error(`Task ${taskId} is not a reference build.`);
      return polled;
    },
    refetchInterval: (q) => (q.state.data && (q.state.data.status === "completed" || q.state.data.status === "failed") ? false : 1000),
  });
  const wipe = useMutation({
    mutationFn: async () => unwrap(await studioApi.DELETE("/v1/services/studio/matching/references", { params: { query: { agency_id: String(agency.id) } } })),
    onSuccess: () => setAnswer(null),
  });
  const report: ReferenceProblem[] = answer?.status === "completed" ? answer.report : (task.data?.report ?? []);
  return (
    <Card title="1. Reference portraits">
      <ConsentSwitch agency={agency} onChange={() => setAnswer(null)} />
      <p className="mt-3 text-sm text-slate-600">
        One embedding is made from each subject&apos;s reference photo (free). Run it again after changing the roster: only new or changed photos are processed.{" "}
        <Link href={`/agencies/${agency.id}/roster`} className="text-brand-700 underline">
          Edit the roster
        </Link>
      </p>
      <div className="mt-3 flex flex-wrap gap-2">
        <Button disabled={!agency.face_matching_enabled || build.isPending || (task.data !== undefined && task.data.status === "running")} onClick={() => build.mutate()}>
          {build.isPending ? "Reading portraits…" : "Build references"}
        </Button>
        <Button
          variant="danger"
          disabled={wipe.isPending}
          onClick={() => {
            if (window.confirm(`Delete every face embedding of ${agency.name}? Matching needs them built again.`)) wipe.mutate();
          }}
        >
          Delete embeddings
        </Button>
      </div>
      {build.error ? (
        <p role="alert" className="mt-2 text-sm text-red-600">
          {errorMessage(build.error)}
        </p>
      ) : null}
      {wipe.data ? <p className="mt-2 text-sm text-slate-600">{wipe.data.embeddings_deleted} embeddings deleted.</p> : null}
      {answer?.status === "completed" ? (
        <p className="mt-3 text-sm text-slate-700" data-testid="references-summary">
          {/* A subject may have several portraits: each is embedded, kept or reported once (duplicates are reported per pair of subjects). */}
          {answer.embeddings_created + answer.embeddings_kept} of {answer.embeddings_created + answer.embeddings_kept + answer.report.filter((p) => p.reason !== "possible_duplicate").length} portraits ready for{" "}
          {answer.subjects_with_photos} subjects ({answer.embeddings_created} new, {answer.embeddings_kept} unchanged).
        </p>
      ) : null}
      {taskId && task.data ? (
        <div className="mt-3 text-sm text-slate-700" data-testid="references-summary">
          <progress className="w-full" max={task.data.subjects_total} value={task.data.processed} />
          {task.data.status === "completed"
            ? `${task.data.embeddings_created} new embeddings for ${task.data.subjects_total} subjects.`
            : task.data.status === "failed"
              ? (task.data.error ?? "The build failed.")
              : `Reading portraits: ${task.data.processed} of ${task.data.subjects_total}…`}
        </div>
      ) : null}
      {report.length > 0 ? (
        <div className="mt-3">
          <p className="text-sm font-medium text-amber-800">{report.length} portrait{report.length === 1 ? "" : "s"} to look at:</p>
          <ul className="mt-1 max-h-48 space-y-1 overflow-y-auto text-sm">
            {report.map((p) => (
              <li key={`${p.subject_id}:${p.reason}`} title={p.message}>
                <span className="font-mono text-xs">{p.student_id}</span> · {REASON[p.reason] ?? p.reason}
                <span className="block text-xs text-slate-500">{p.message}</span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </Card>
  );
}
