"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState, ListSkeleton } from "@/components/ui/list-states";
import { PaginationControls } from "@/components/ui/pagination-controls";
import { QueryError } from "@/components/ui/query-error";
import { Settings, StatusFilter, StatusPill, When } from "@/components/history/history-parts";
import { useHistoryList } from "@/components/history/use-history-list";
import { studioApi, unwrap } from "@/lib/client/typed-api";
import { useQueryParam } from "@/lib/client/use-query-param";
import { CropCard } from "./crop-card";
import { CropEditor } from "./crop-editor";
import { downloadZip } from "./download-zip";
import { fetchFaceCropTask, isCropped, isFailed, type CropResult, type TaskSummary } from "./types";


export const FACE_CROP_HISTORY_KEY = ["face-crop", "tasks"] as const;
const STATUSES = ["queued", "running", "completed", "failed"] as const;
const running = (t: TaskSummary) => t.status === "queued" || t.status === "running";

/** One past task opened (`?task=`): every crop, editable, and the ZIP. */
function OpenTask({ taskId, onClose }: { taskId: string; onClose: () => void }) {
  const queryClient = useQueryClient();
  const task = useQuery({
    queryKey: ["face-crop", "task-full", taskId],
    queryFn: () => fetchFaceCropTask(taskId),
    refetchInterval: (q) => (q.state.data && (q.state.data.status === "queued" || q.state.data.status === "running") ? 2_000 : false),
  });
  const [editing, setEditing] = useState<CropResult | null>(null);
  const [zipping, setZipping] = useState<string | null>(null);
  useEffect(() => {
    document.getElementById(`open-task-${taskId}`)?.scrollIntoView({ block: "start" });
  }, [taskId, task.isSuccess]);
  const results = task.data?.results ?? [];
  const cropped = results.filter(isCropped);
  const failed = results.filter(isFailed);

  async function zipAll() {
    setZipping("Preparing…");
    try {
      await downloadZip(cropped, `face-crops-${taskId}.zip`, (n) => setZipping(`${n} of ${cropped.length}`));
      setZipping(null);
    } catch (err) {
      setZipping(err instanceof Error ? err.message : "The ZIP could not be made.");
    }
  }

  return (
    <div id={`open-task-${taskId}`} data-testid="face-crop-open-task">
      <Card
        title={`Task ${taskId}`}
        actions={
          <div className="flex items-center gap-3">
            {zipping ? <span className="text-xs text-slate-500">{zipping}</span> : null}
            <Button variant="secondary" onClick={() => void zipAll()} disabled={cropped.length === 0}>
              Download all as ZIP ({cropped.length})
            </Button>
            <Button variant="secondary" onClick={onClose}>
              Close
            </Button>
          </div>
        }
      >
        {task.isPending ? (
          <ListSkeleton label="Loading the task" rows={1} rowClassName="h-40" />
        ) : task.error ? (
          <QueryError title="The task could not be loaded." error={task.error} onRetry={() => void task.refetch()} />
        ) : task.data ? (
          <div className="space-y-3">
            <div className="flex flex-wrap items-center gap-3">
              <StatusPill status={task.data.status} />
              <Settings items={[["Preset", task.data.icp_type], ["Enhance", task.data.enhance ? "on" : "off"], ["Photos", task.data.total_files], ["Tokens", task.data.tokens_deducted]]} />
            </div>
            {failed.length ? (
              <ul className="space-y-1 text-sm">
                {failed.map((r) => (
                  <li key={r.result_id}>
                    <span className="font-medium text-slate-900">{r.filename}</span>: <span className="text-slate-600">{r.error.message}</span> (refunded)
                  </li>
                ))}
              </ul>
            ) : null}
            <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3" aria-label="Crops of this task">
              {cropped.map((r) => (
                <CropCard key={r.result_id} result={r} onEdit={() => setEditing(r)} />
              ))}
            </ul>
          </div>
        ) : null}
      </Card>
      {editing ? (
        <CropEditor
          result={editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void queryClient.invalidateQueries({ queryKey: ["face-crop", "task-full", taskId] });
            void queryClient.invalidateQueries({ queryKey: FACE_CROP_HISTORY_KEY });
          }}
        />
      ) : null}
    </div>
  );
}

/** Every Face Crop task of the account, newest first, with thumbnails; `?task=` opens one (a reload or Back keeps it). */
export function FaceCropHistory() {
  const { query, setPage, status, setStatus } = useHistoryList(
    async ({ status, ...q }) => {
      const page = unwrap(await studioApi.GET("/v1/services/studio/jobs", { params: { query: { ...q, type: "face_crop", ...(status ? { status: status as TaskSummary["status"] } : {}) } } }));
      // ?type=face_crop lists Face Crop tasks only; the filter also tells the type checker so.
      return { ...page, data: page.data.filter((t): t is TaskSummary => "enhance" in t) };
    },
    FACE_CROP_HISTORY_KEY,
    running,
    10,
  );
  const [open, setOpen] = useQueryParam("task");
  const tasks = query.data?.data ?? [];
  return (
    <div className="space-y-4">
      {open ? <OpenTask taskId={open} onClose={() => setOpen(null)} /> : null}
      <Card title="History" actions={<StatusFilter label="Status" value={status} options={STATUSES} onChange={setStatus} />}>
        {query.isPending ? (
          <ListSkeleton label="Loading the history" rows={3} rowClassName="h-20" />
        ) : query.error ? (
          <QueryError title="The history could not be loaded." error={query.error} onRetry={() => void query.refetch()} />
        ) : tasks.length === 0 ? (
          <EmptyState>{status ? "No tasks in this state." : "No face crops yet: every batch you crop stays here."}</EmptyState>
        ) : (
          <ul className="divide-y divide-slate-100" data-testid="face-crop-history">
            {tasks.map((t) => (
              <li key={t.task_id} className={`flex flex-wrap items-center gap-4 py-3 ${t.task_id === open ? "bg-brand-50" : ""}`} data-testid="face-crop-history-item" data-task-id={t.task_id}>
                <div className="flex gap-1">
                  {t.thumbnails.length ? (
                    t.thumbnails.map((th) => (
                      // eslint-disable-next-line @next/next/no-img-element -- a signed, expiring URL
                      <img key={th.result_id} src={th.url} alt={`Crop of ${th.filename}`} className="h-16 w-12 rounded border border-slate-200 object-cover" loading="lazy" />
                    ))
                  ) : (
                    <div className="flex h-16 w-12 items-center justify-center rounded border border-dashed border-slate-200 text-[10px] text-slate-400">none</div>
                  )}
                </div>
                <div className="min-w-0 flex-1 space-y-1">
                  <div className="flex items-center gap-2">
                    <StatusPill status={t.status} />
                    <When iso={t.created_at} />
                  </div>
                  <Settings
                    items={[
                      ["Preset", t.icp_type],
                      ["Enhance", t.enhance ? "on" : "off"],
                      ["Cropped", `${t.completed_files} of ${t.total_files}`],
                      ["Tokens", t.tokens_refunded ? `${t.tokens_deducted} (${t.tokens_refunded} refunded)` : t.tokens_deducted],
                    ]}
                  />
                </div>
                <Button variant="secondary" onClick={() => setOpen(t.task_id)} aria-label={`Open task ${t.task_id}`}>
                  Open
                </Button>
              </li>
            ))}
          </ul>
        )}
        {query.data ? <PaginationControls meta={query.data.meta} onPageChange={setPage} className="mt-4" label="History pages" /> : null}
      </Card>
    </div>
  );
}
