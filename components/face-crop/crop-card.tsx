"use client";

import type { CropResult } from "./types";

/** The crop window's corners (turned by its angle about its centre), as an SVG points list. */
function windowPoints(b: CropResult["crop_box"]): string {
  const cx = b.x + b.w / 2;
  const cy = b.y + b.h / 2;
  const a = (b.angle * Math.PI) / 180;
  return [
    [-1, -1],
    [1, -1],
    [1, 1],
    [-1, 1],
  ]
    .map(([sx, sy]) => {
      const dx = (sx! * b.w) / 2;
      const dy = (sy! * b.h) / 2;
      return `${cx + dx * Math.cos(a) - dy * Math.sin(a)},${cy + dx * Math.sin(a) + dy * Math.cos(a)}`;
    })
    .join(" ");
}

const ENHANCEMENT = { none: "", sharpened: "sharpened for print", upscaled_lanczos_sharpened: "enlarged to print size and sharpened", super_resolution_2x: "AI super-resolution to print size" } as Record<string, string>;

/** Says which sides were filled, e.g. "Background extended at the top (212 px) and left (40 px)". */
function edgeNote(r: CropResult): string {
  if (r.edge === "shifted") return "Moved inside the photo (face near an edge)";
  if (r.edge === "zoomed") return "Zoomed in (made before padding existed)";
  if (!r.padded) return "";
  const sides = (["top", "right", "bottom", "left"] as const).filter((s) => r.padding[s] > 0).map((s) => `${s} (${r.padding[s]} px)`);
  return `Background extended at the ${sides.join(", ")}: the photo ends there, the head is whole`;
}

/** The original with what the machine saw (face box, eye line, crop window) beside the crop. */
export function CropCard({ result, onEdit }: { result: CropResult; onEdit: () => void }) {
  const { source, face_box: f, landmarks: l } = result;
  const stroke = Math.max(2, source.width / 250);
  return (
    <li className="rounded-lg border border-slate-200 bg-white p-3" data-testid="crop-card" data-result-id={result.result_id}>
      <div className="grid grid-cols-2 gap-2">
        <div className="relative self-start">
          {/* eslint-disable-next-line @next/next/no-img-element -- a signed storage URL */}
          <img src={source.url} alt={`${result.filename}, original`} className="w-full rounded" style={{ aspectRatio: `${source.width} / ${source.height}` }} />
          <svg viewBox={`0 0 ${source.width} ${source.height}`} className="pointer-events-none absolute inset-0 h-full w-full" aria-hidden>
            <polygon points={windowPoints(result.crop_box)} fill="none" stroke="#f59e0b" strokeWidth={stroke} />
            <rect x={f.x} y={f.y} width={f.w} height={f.h} fill="none" stroke="#22c55e" strokeWidth={stroke} />
            <line x1={l.left_eye.x} y1={l.left_eye.y} x2={l.right_eye.x} y2={l.right_eye.y} stroke="#0ea5e9" strokeWidth={stroke} />
          </svg>
        </div>
        {/* eslint-disable-next-line @next/next/no-img-element -- a signed storage URL */}
        <img src={result.output_urls.medium} alt={`${result.filename}, cropped`} className="w-full self-start rounded border border-slate-200" />
      </div>
      <div className="mt-2 flex items-start justify-between gap-2 text-xs">
        <div className="min-w-0">
          <p className="truncate font-medium text-slate-900" title={result.filename}>
            {result.filename}
          </p>
          <p className="text-slate-500">
            {result.output_size.width} × {result.output_size.height} px
            {result.faces_found > 1 ? `, ${result.faces_found} faces: the most prominent cropped` : ""}
            {result.manual ? ", adjusted by hand" : ""}
            {ENHANCEMENT[result.enhancement ?? ""] ? `, ${ENHANCEMENT[result.enhancement ?? ""]}` : ""}
          </p>
          {edgeNote(result) ? (
            <p className="text-amber-700" data-testid="edge-note">
              {edgeNote(result)}
            </p>
          ) : null}
        </div>
        <button type="button" onClick={onEdit} className="shrink-0 rounded border border-slate-300 px-2 py-1 text-slate-700 hover:bg-slate-50">
          Adjust
        </button>
      </div>
    </li>
  );
}
