"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { useDropzone } from "react-dropzone";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { formatTokens } from "@/components/wallet/format";
import { useWalletBalance } from "@/components/wallet/use-wallet-balance";
import { ApiRequestError } from "@/lib/client/api-fetch";
import { FACE_CROP_COST, FACE_CROP_ENHANCE_COST } from "@/lib/services/face-crop/pricing";
import type { IcpType } from "@/lib/services/face-crop/presets";
import { CropCard } from "./crop-card";
import { CropEditor } from "./crop-editor";
import { downloadZip } from "./download-zip";
import { FaceCropHistory, FACE_CROP_HISTORY_KEY } from "./face-crop-history";
import { PresetPicker } from "./preset-picker";
import { TaskProgress } from "./task-progress";
import { isCropped, isFailed, type AnyResult, type CropResult } from "./types";
import { splitIntoBatches, uploadBatch } from "./upload-batch";

type Batch = { id: number; files: number; stage: "uploading" | "cropping" | "done" | "refused"; sent: number; total: number; taskId?: string; error?: string };

const ACCEPT = { "image/jpeg": [".jpg", ".jpeg"], "image/png": [".png"], "image/webp": [".webp"], "image/tiff": [".tif", ".tiff"] };

function explain(err: unknown): string {
  if (err instanceof ApiRequestError && err.status === 402) return `Not enough tokens: ${err.body.shortfall ?? "more"} tokens short. Top up your wallet and send again.`;
  return err instanceof Error ? err.message : "The batch could not be sent.";
}

/** Upload a picture day, pick the preset, see the cost, follow the crop, review, adjust, download. */
export function FaceCropStudio() {
  const queryClient = useQueryClient();
  const balance = useWalletBalance();
  const [files, setFiles] = useState<File[]>([]);
  const [icp, setIcp] = useState<IcpType>("school");
  const [enhance, setEnhance] = useState(false);
  const [batches, setBatches] = useState<Batch[]>([]);
  const [results, setResults] = useState<AnyResult[]>([]);
  const [editing, setEditing] = useState<CropResult | null>(null);
  const [zipping, setZipping] = useState<string | null>(null);
  const sending = batches.some((b) => b.stage === "uploading");
  const { getRootProps, getInputProps, isDragActive } = useDropzone({ accept: ACCEPT, multiple: true, disabled: sending, onDrop: (accepted) => setFiles((f) => [...f, ...accepted]) });

  const price = enhance ? FACE_CROP_ENHANCE_COST : FACE_CROP_COST;
  const cost = files.length * price;
  const short = balance.data !== undefined && cost > balance.data.balance;
  const patch = (id: number, p: Partial<Batch>) => setBatches((all) => all.map((b) => (b.id === id ? { ...b, ...p } : b)));

  const taskDone = useCallback(
    (taskId: string, taskResults: AnyResult[]) => {
      setBatches((all) => all.map((b) => (b.taskId === taskId && b.stage !== "done" ? { ...b, stage: "done" } : b)));
      setResults((all) => (all.some((r) => r.result_id === taskResults[0]?.result_id) ? all : [...all, ...taskResults]));
      void queryClient.invalidateQueries({ queryKey: ["wallet"] });
      void queryClient.invalidateQueries({ queryKey: FACE_CROP_HISTORY_KEY });
    },
    [queryClient],
  );

  async function send() {
    const groups = splitIntoBatches(files);
    setFiles([]);
    const base = batches.length;
    setBatches((all) => [...all, ...groups.map((g, i) => ({ id: base + i, files: g.length, stage: "uploading" as const, sent: 0, total: 1 }))]);
    for (const [i, group] of groups.entries()) {
      const id = base + i;
      try {
        const { status, body } = await uploadBatch(group, icp, enhance, (sent, total) => patch(id, { sent, total }));
        if (status === 200 && "results" in body) {
          patch(id, { stage: "done", sent: 1, total: 1 });
          setResults((all) => [...all, ...body.results]);
        } else patch(id, { stage: "cropping", taskId: body.task_id, sent: 1, total: 1 });
      } catch (err) {
        patch(id, { stage: "refused", error: explain(err) });
      }
    }
    await queryClient.invalidateQueries({ queryKey: ["wallet"] });
    await queryClient.invalidateQueries({ queryKey: FACE_CROP_HISTORY_KEY });
  }

  const cropped = results.filter(isCropped);
  const failed = results.filter(isFailed);

  async function zipAll() {
    setZipping("Preparing…");
    try {
      await downloadZip(cropped, `face-crops-${new Date().toISOString().slice(0, 10)}.zip`, (n) => setZipping(`${n} of ${cropped.length}`));
      setZipping(null);
    } catch (err) {
      setZipping(err instanceof Error ? err.message : "The ZIP could not be made.");
    }
  }

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">Face crop</h1>
        <p className="mt-1 text-sm text-slate-600">
          Crop a whole picture day the same way: same head size, same eye line, heads levelled. {FACE_CROP_COST} tokens a photo, {FACE_CROP_ENHANCE_COST} with enhance;
          photos without a face are refunded.
        </p>
      </div>

      <div className="grid gap-6 lg:grid-cols-5">
        <Card title="Photos" className="lg:col-span-3">
          <div {...getRootProps()} className={`flex cursor-pointer flex-col items-center justify-center rounded-lg border-2 border-dashed px-6 py-10 text-center ${isDragActive ? "border-brand-500 bg-brand-50" : "border-slate-300 bg-slate-50"}`}>
            <input {...getInputProps()} aria-label="Photos to crop" data-testid="face-crop-input" />
            <p className="text-sm font-medium text-slate-800">{isDragActive ? "Drop the photos here" : "Drag and drop a batch of portraits, or click to choose"}</p>
            <p className="mt-1 text-xs text-slate-500">JPEG, PNG, WebP or TIFF. Hundreds at once are sent in batches of up to 200.</p>
          </div>
          {files.length ? <p className="mt-3 text-sm text-slate-700" data-testid="ready-count">{files.length} photos ready</p> : null}
        </Card>

        <Card title="Crop" className="lg:col-span-2">
          <PresetPicker value={icp} onChange={setIcp} disabled={sending} />
          <label className="mt-4 flex items-center gap-2 text-sm text-slate-700">
            <input type="checkbox" checked={enhance} onChange={(e) => setEnhance(e.target.checked)} disabled={sending} />
            Enhance for print: small crops are enlarged to the print size (AI super-resolution for the smallest) and sharpened; {FACE_CROP_ENHANCE_COST} tokens a photo,
            always run as a task
          </label>
          <div className="mt-4 rounded-md bg-slate-50 p-3 text-sm" data-testid="cost">
            <p>
              Cost: <strong>{formatTokens(cost)} tokens</strong> for {files.length} photos
            </p>
            <p className="text-xs text-slate-500">Balance: {balance.data ? `${formatTokens(balance.data.balance)} tokens` : "…"}. Photos without a face are refunded.</p>
            {short ? <p className="text-xs text-red-600">Not enough tokens for this batch.</p> : null}
          </div>
          <Button className="mt-4 w-full" onClick={send} disabled={!files.length || sending || short}>
            {sending ? "Sending…" : `Crop ${files.length || ""} photos`}
          </Button>
        </Card>
      </div>

      {batches.length ? (
        <Card title="Progress">
          <ul className="space-y-3">
            {batches.map((b) =>
              b.taskId && b.stage !== "refused" ? (
                <li key={b.id}>
                  <TaskProgress taskId={b.taskId} label={`Batch ${b.id + 1} (${b.files} photos)`} onDone={taskDone} />
                </li>
              ) : (
                <li key={b.id} className="text-sm">
                  <div className="flex justify-between text-xs text-slate-600">
                    <span>
                      Batch {b.id + 1} ({b.files} photos)
                    </span>
                    <span>{b.stage === "uploading" ? `uploading ${Math.round((b.sent / b.total) * 100)}%` : b.stage === "done" ? "cropped" : "refused"}</span>
                  </div>
                  <div className="mt-1 h-2 overflow-hidden rounded bg-slate-100" role="progressbar" aria-valuenow={Math.round((b.sent / b.total) * 100)} aria-label={`Batch ${b.id + 1} upload`}>
                    <div className={`h-full ${b.stage === "refused" ? "bg-red-500" : "bg-brand-600"}`} style={{ width: `${(b.sent / b.total) * 100}%` }} />
                  </div>
                  {b.error ? <p role="alert" className="mt-1 text-xs text-red-600">{b.error}</p> : null}
                </li>
              ),
            )}
          </ul>
        </Card>
      ) : null}

      {failed.length ? (
        <Card title={`Not cropped (${failed.length}, refunded)`}>
          <ul className="space-y-1 text-sm" data-testid="failed-files">
            {failed.map((r) => (
              <li key={r.result_id}>
                <span className="font-medium text-slate-900">{r.filename}</span>: <span className="text-slate-600">{r.error.message}</span>
              </li>
            ))}
          </ul>
        </Card>
      ) : null}

      {cropped.length ? (
        <Card
          title={`Crops (${cropped.length})`}
          actions={
            <div className="flex items-center gap-3">
              {zipping ? <span className="text-xs text-slate-500">{zipping}</span> : null}
              <Button variant="secondary" onClick={zipAll} disabled={zipping !== null && !zipping.includes(" ")}>
                Download all as ZIP
              </Button>
            </div>
          }
        >
          <p className="mb-3 text-xs text-slate-500">Left: the original with the face (green), the eye line (blue) and the crop (amber). Right: the crop.</p>
          <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3" aria-label="Cropped photos">
            {cropped.map((r) => (
              <CropCard key={r.result_id} result={r} onEdit={() => setEditing(r)} />
            ))}
          </ul>
        </Card>
      ) : null}

      <FaceCropHistory />

      {editing ? (
        <CropEditor
          result={editing}
          onClose={() => setEditing(null)}
          onSaved={(updated) => {
            setResults((all) => all.map((r) => (r.result_id === updated.result_id ? updated : r)));
            setEditing(null);
          }}
        />
      ) : null}
    </div>
  );
}
