"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { fetchFaceCropTask, taskKey, type AnyResult, type Task } from "./types";

/** Follows one task (GET /v1/services/studio/jobs/{id}) until it ends, then hands its results over. */
export function TaskProgress({ taskId, label, onDone }: { taskId: string; label: string; onDone: (taskId: string, results: AnyResult[], task: Task) => void }) {
  const q = useQuery({
    queryKey: taskKey(taskId),
    queryFn: () => fetchFaceCropTask(taskId),
    refetchInterval: (query) => (query.state.data && (query.state.data.status === "completed" || query.state.data.status === "failed") ? false : 3000),
  });
  const task = q.data;
  const ended = task && (task.status === "completed" || task.status === "failed");
  useEffect(() => {
    if (ended && task.results) onDone(taskId, task.results, task);
  }, [ended, task, taskId, onDone]);
  const pct = task?.progress.percentage ?? 0;
  return (
    <div className="text-sm" data-testid="task-progress">
      {/* Wraps on a phone instead of pushing the page wider than the screen. */}
      <div className="flex flex-wrap justify-between gap-x-3 text-xs text-slate-600">
        <span className="min-w-0 break-words">{label}</span>
        <span className="min-w-0 break-words">
          {task ? `${task.status}: ${task.progress.current} of ${task.progress.total} files` : "waiting…"}
          {task?.status === "failed" && task.error_message ? ` (${task.error_message})` : ""}
        </span>
      </div>
      <div className="mt-1 h-2 overflow-hidden rounded bg-slate-100" role="progressbar" aria-valuenow={pct} aria-valuemin={0} aria-valuemax={100} aria-label={`${label} cropping`}>
        <div className={`h-full ${task?.status === "failed" ? "bg-red-500" : "bg-emerald-500"}`} style={{ width: `${pct}%` }} />
      </div>
    </div>
  );
}
