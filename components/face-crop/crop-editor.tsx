"use client";

import { useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { studioApi, unwrap } from "@/lib/client/typed-api";
import { isCropped, type CropResult } from "./types";

type Box = { x: number; y: number; w: number; h: number };

/**
 * The current window as an upright box, inside the photo: a window that reaches
 * past the photo's edge (a padded crop) is shrunk about its centre, keeping the
 * preset's aspect, rather than cut to the photo's size (which opened the dialog
 * on the whole photo).
 */
export function initialBox(r: Pick<CropResult, "crop_box" | "source">): Box {
  const { w, h } = r.crop_box;
  const W = r.source.width;
  const H = r.source.height;
  const k = Math.min(1, W / w, H / h);
  const bw = w * k;
  const bh = h * k;
  const cx = r.crop_box.x + w / 2;
  const cy = r.crop_box.y + h / 2;
  const x = Math.min(Math.max(0, cx - bw / 2), W - bw);
  const y = Math.min(Math.max(0, cy - bh / 2), H - bh);
  return { x, y, w: bw, h: bh };
}

/**
 * Drag the window to move it, drag its corner to resize it (the preset's aspect is
 * kept), save: PUT /v1/services/studio/face-crop/results/{id}, free of charge.
 */
export function CropEditor({ result, onSaved, onClose }: { result: CropResult; onSaved: (r: CropResult) => void; onClose: () => void }) {
  const [box, setBox] = useState<Box>(() => initialBox(result));
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const frame = useRef<HTMLDivElement>(null);
  const drag = useRef<{ mode: "move" | "resize"; startX: number; startY: number; start: Box } | null>(null);
  const aspect = result.crop_box.w / result.crop_box.h;
  const W = result.source.width;
  const H = result.source.height;

  const scale = () => W / (frame.current?.getBoundingClientRect().width || W);
  const begin = (mode: "move" | "resize", e: React.PointerEvent) => {
    e.preventDefault();
    e.stopPropagation();
    (e.target as Element).setPointerCapture(e.pointerId);
    drag.current = { mode, startX: e.clientX, startY: e.clientY, start: box };
  };
  const move = (e: React.PointerEvent) => {
    const d = drag.current;
    if (!d) return;
    const k = scale();
    const dx = (e.clientX - d.startX) * k;
    const dy = (e.clientY - d.startY) * k;
    if (d.mode === "move") {
      setBox({ ...d.start, x: Math.min(Math.max(0, d.start.x + dx), W - d.start.w), y: Math.min(Math.max(0, d.start.y + dy), H - d.start.h) });
    } else {
      let w = Math.max(32, d.start.w + dx);
      w = Math.min(w, W - d.start.x, (H - d.start.y) * aspect);
      setBox({ ...d.start, w, h: w / aspect });
    }
  };
  const end = () => (drag.current = null);

  async function save() {
    setSaving(true);
    setError(null);
    try {
      const r = (v: number) => Math.round(v * 10) / 10;
      const updated = unwrap(
        await studioApi.PUT("/v1/services/studio/face-crop/results/{resultId}", {
          params: { path: { resultId: result.result_id } },
          body: { crop_box: { x: r(box.x), y: r(box.y), w: r(Math.min(box.w, W - box.x)), h: r(Math.min(box.h, H - box.y)) } },
        }),
      );
      if (!isCropped(updated)) throw new Error("The crop could not be saved.");
      onSaved(updated);
    } catch (err) {
      setError(err instanceof Error ? err.message : "The crop could not be saved.");
    } finally {
      setSaving(false);
    }
  }

  return (
    <div role="dialog" aria-label={`Adjust the crop of ${result.filename}`} className="fixed inset-0 z-50 flex items-center justify-center bg-slate-900/60 p-4">
      <div className="max-h-full w-full max-w-3xl overflow-auto rounded-lg bg-white p-4 shadow-xl">
        <h2 className="text-base font-semibold text-slate-900">Adjust the crop: {result.filename}</h2>
        <p className="mb-3 text-xs text-slate-500">Drag the frame to move it; drag its corner to resize. Saving a new crop is free.</p>
        <div ref={frame} className="relative mx-auto max-w-xl touch-none select-none" onPointerMove={move} onPointerUp={end} onPointerCancel={end}>
          {/* eslint-disable-next-line @next/next/no-img-element -- a signed storage URL */}
          <img src={result.source.url} alt={`${result.filename}, original`} className="w-full" draggable={false} />
          <div
            data-testid="crop-window"
            onPointerDown={(e) => begin("move", e)}
            className="absolute cursor-move border-2 border-amber-400 shadow-[0_0_0_9999px_rgba(15,23,42,0.45)]"
            style={{ left: `${(box.x / W) * 100}%`, top: `${(box.y / H) * 100}%`, width: `${(box.w / W) * 100}%`, height: `${(box.h / H) * 100}%` }}
          >
            <div data-testid="crop-resize" onPointerDown={(e) => begin("resize", e)} className="absolute -bottom-2 -right-2 h-4 w-4 cursor-nwse-resize rounded-sm border-2 border-white bg-amber-500" />
          </div>
        </div>
        {error ? <p role="alert" className="mt-2 text-sm text-red-600">{error}</p> : null}
        <div className="mt-4 flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose} disabled={saving}>
            Cancel
          </Button>
          <Button onClick={save} disabled={saving}>
            {saving ? "Saving…" : "Save crop"}
          </Button>
        </div>
      </div>
    </div>
  );
}
