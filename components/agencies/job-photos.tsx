"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useMemo, useState } from "react";
import { useDropzone } from "react-dropzone";
import { Card } from "@/components/ui/card";
import { PaginationControls } from "@/components/ui/pagination-controls";
import { QueryError } from "@/components/ui/query-error";
import { errorMessage } from "./api-errors";
import { studioKeys } from "./types";
import { uploadWithProgress } from "@/lib/client/upload-with-progress";
import { RenameDelete } from "./rename-delete";
import { studioApi, unwrap } from "@/lib/client/typed-api";
import { QrSortPanel } from "@/components/qr-sort/qr-sort-panel";
import { JobGalleriesPanel } from "@/components/galleries/job-galleries-panel";
import { JobPriceSheet } from "@/components/orders/job-price-sheet";

type Upload = { key: string; name: string; progress: number; status: "uploading" | "done" | "failed"; error?: string; warning?: string };

/** Two uploads at a time: fast on a good line, and progress stays readable. */
const PARALLEL = 2;

/** /agencies/[id]/jobs/[jobId]: drop photos in, watch them upload, browse the thumbnails. */
export function JobPhotos({ agencyId, jobId }: { agencyId: number; jobId: number }) {
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [deleting, setDeleting] = useState<number | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const router = useRouter();
  const ids = useMemo(() => ({ agencyId: String(agencyId), jobId: String(jobId) }), [agencyId, jobId]);
  const agency = useQuery({ queryKey: studioKeys.agency(agencyId), queryFn: async () => unwrap(await studioApi.GET("/v1/services/studio/agencies/{agencyId}", { params: { path: ids } })) });
  const job = useQuery({ queryKey: studioKeys.job(agencyId, jobId), queryFn: async () => unwrap(await studioApi.GET("/v1/services/studio/agencies/{agencyId}/jobs/{jobId}", { params: { path: ids } })) });
  const files = useQuery({
    queryKey: [...studioKeys.files(jobId), page],
    queryFn: async () => unwrap(await studioApi.GET("/v1/services/studio/agencies/{agencyId}/jobs/{jobId}/files", { params: { path: ids, query: { limit: "48", page: String(page) } } })),
    placeholderData: keepPreviousData,
  });

  const patch = (key: string, change: Partial<Upload>) => setUploads((list) => list.map((u) => (u.key === key ? { ...u, ...change } : u)));

  const onDrop = useCallback(
    async (accepted: File[]) => {
      const batch = accepted.map((file, i) => ({ file, key: `${Date.now()}-${i}-${file.name}` }));
      setUploads((list) => [...batch.map(({ file, key }) => ({ key, name: file.name, progress: 0, status: "uploading" as const })), ...list]);
      const queue = [...batch];
      const worker = async () => {
        for (let next = queue.shift(); next; next = queue.shift()) {
          const { file, key } = next;
          const form = new FormData();
          form.append("file", file);
          try {
            const { body: answer } = await uploadWithProgress("/v1/services/studio/agencies/{agencyId}/jobs/{jobId}/files", ids, form, (p) => patch(key, { progress: p }));
            patch(key, { status: "done", progress: 1, warning: answer.warnings?.map((w) => w.message).join(" ") || undefined });
            await queryClient.invalidateQueries({ queryKey: studioKeys.files(jobId) });
          } catch (err) {
            patch(key, { status: "failed", error: errorMessage(err) });
          }
        }
      };
      await Promise.all(Array.from({ length: PARALLEL }, worker));
      await queryClient.invalidateQueries({ queryKey: studioKeys.job(agencyId, jobId) });
    },
    [agencyId, ids, jobId, queryClient],
  );
  const { getRootProps, getInputProps, isDragActive } = useDropzone({
    onDrop,
    accept: { "image/jpeg": [".jpg", ".jpeg"], "image/png": [".png"], "image/webp": [".webp"], "image/tiff": [".tif", ".tiff"] },
  });

  async function deletePhoto(fileId: number) {
    setDeleteError(null);
    try {
      unwrap(await studioApi.DELETE("/v1/services/studio/agencies/{agencyId}/jobs/{jobId}/files/{fileId}", { params: { path: { ...ids, fileId: String(fileId) } } }));
      setDeleting(null);
      await Promise.all([queryClient.invalidateQueries({ queryKey: studioKeys.files(jobId) }), queryClient.invalidateQueries({ queryKey: studioKeys.job(agencyId, jobId) })]);
    } catch (err) {
      setDeleteError(errorMessage(err) ?? "The photo could not be deleted.");
    }
  }

  if (job.error) return <QueryError title="Could not load the job." error={job.error} onRetry={() => void job.refetch()} />;
  return (
    <div className="space-y-6">
      <div>
        <Link href={`/agencies/${agencyId}`} className="text-sm text-brand-600 hover:underline">
          ← {agency.data?.name ?? "Agency"}
        </Link>
        <h1 className="mt-1 text-2xl font-semibold text-slate-900">{job.data?.name ?? "…"}</h1>
        {job.data ? (
          <p className="mt-1 text-sm text-slate-600">
            {job.data.status} · crop preset {job.data.icp_type} · {files.data?.meta.total ?? job.data.file_count} photos
          </p>
        ) : null}
        {job.data ? (
          <div className="mt-3">
            <RenameDelete
              what="job"
              name={job.data.name}
              target={{ agencyId, jobId }}
              onRenamed={() => Promise.all([queryClient.invalidateQueries({ queryKey: studioKeys.job(agencyId, jobId) }), queryClient.invalidateQueries({ queryKey: studioKeys.jobs(agencyId) })])}
              onDeleted={() => {
                queryClient.removeQueries({ queryKey: studioKeys.job(agencyId, jobId) });
                void queryClient.invalidateQueries({ queryKey: ["studio", "agency", agencyId] });
                router.push(`/agencies/${agencyId}`);
              }}
            />
          </div>
        ) : null}
      </div>
      <Card title="Add photos">
        <div
          {...getRootProps()}
          className={`cursor-pointer rounded-lg border-2 border-dashed p-8 text-center text-sm ${isDragActive ? "border-brand-500 bg-brand-50" : "border-slate-300 text-slate-600 hover:border-brand-500"}`}
        >
          <input {...getInputProps()} aria-label="Photos to upload" />
          <p className="font-medium">Drop photos here, or click to choose</p>
          <p className="mt-1 text-xs text-slate-500">JPEG, PNG, WebP or TIFF, up to 50 MB each</p>
        </div>
        {uploads.length ? (
          <p className="mt-4 text-sm font-medium text-slate-700" role="status" data-testid="upload-count">
            {uploadSummary(uploads)}
          </p>
        ) : null}
        {uploads.length ? (
          <ul className="mt-2 space-y-2" aria-label="Uploads">
            {uploads.map((u) => (
              <li key={u.key} className="text-sm">
                <div className="flex justify-between gap-3">
                  <span className="truncate">{u.name}</span>
                  <span className={u.status === "failed" ? "text-red-600" : "text-slate-500"}>
                    {u.status === "uploading" ? `${Math.round(u.progress * 100)}%` : u.status === "done" ? "Uploaded" : "Failed"}
                  </span>
                </div>
                <div className="mt-1 h-1.5 overflow-hidden rounded bg-slate-100" role="progressbar" aria-label={`Upload of ${u.name}`} aria-valuenow={Math.round(u.progress * 100)} aria-valuemin={0} aria-valuemax={100}>
                  <div className={`h-full ${u.status === "failed" ? "bg-red-500" : "bg-brand-600"}`} style={{ width: `${Math.round(u.progress * 100)}%` }} />
                </div>
                {u.error ? <p className="mt-1 text-xs text-red-600">{u.error}</p> : null}
                {u.warning ? (
                  <p className="mt-1 text-xs text-amber-700" role="status" data-testid="duplicate-warning">
                    Duplicate: {u.warning}
                  </p>
                ) : null}
              </li>
            ))}
          </ul>
        ) : null}
      </Card>
      <QrSortPanel agencyId={agencyId} jobId={jobId} photoCount={files.data?.meta.total ?? job.data?.file_count} />
      <JobGalleriesPanel agencyId={agencyId} jobId={jobId} />
      <JobPriceSheet agencyId={agencyId} jobId={jobId} />
      <Card title="Photos">
        {deleteError ? (
          <p role="alert" className="mb-3 text-sm text-red-600">
            {deleteError}
          </p>
        ) : null}
        {files.error ? (
          <QueryError title="Could not load the photos." error={files.error} onRetry={() => void files.refetch()} />
        ) : files.data && files.data.data.length === 0 ? (
          <p className="text-sm text-slate-500">No photos yet.</p>
        ) : (
          <ul className="grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-6" data-testid="job-photos">
            {files.data?.data.map((f) => (
              <li key={f.id} className="overflow-hidden rounded-md border border-slate-200 bg-white">
                <a href={f.url} target="_blank" rel="noreferrer" className="block aspect-square bg-slate-100">
                  {/* Signed storage URLs: next/image would re-fetch them through its optimiser for nothing. */}
                  {/* eslint-disable-next-line @next/next/no-img-element */}
                  <img src={f.thumbnail_url} alt={f.filename} className="h-full w-full object-contain" loading="lazy" />
                </a>
                <p className="truncate px-2 pt-1 text-xs text-slate-700" title={f.filename}>
                  {f.filename}
                </p>
                <div className="flex items-center justify-between px-2 pb-1 text-xs text-slate-500">
                  <span>
                    {f.width} × {f.height}
                  </span>
                  {deleting === f.id ? (
                    <span className="flex gap-1">
                      <button type="button" className="font-medium text-red-700 hover:underline" onClick={() => void deletePhoto(f.id)} aria-label={`Confirm delete ${f.filename}`}>
                        Delete?
                      </button>
                      <button type="button" className="text-slate-500 hover:underline" onClick={() => setDeleting(null)}>
                        No
                      </button>
                    </span>
                  ) : (
                    <button type="button" className="text-slate-500 hover:text-red-700" onClick={() => setDeleting(f.id)} aria-label={`Delete ${f.filename}`}>
                      Delete
                    </button>
                  )}
                </div>
              </li>
            ))}
          </ul>
        )}
        {files.data ? <PaginationControls className="mt-4" meta={files.data.meta} onPageChange={setPage} disabled={files.isFetching} label="Photo pages" /> : null}
      </Card>
    </div>
  );
}

/** "3 of 9 done…" while photos go up, then "9 of 9 done" (and how many could not be added). */
function uploadSummary(uploads: Upload[]): string {
  const finished = uploads.filter((u) => u.status !== "uploading").length;
  const failed = uploads.filter((u) => u.status === "failed").length;
  const tail = failed ? ` · ${failed} could not be added` : "";
  return `${finished} of ${uploads.length} done${finished < uploads.length ? "…" : ""}${tail}`;
}
