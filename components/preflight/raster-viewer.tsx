"use client";

import { GuideLegend, IssueOverlay, type Guide } from "./issue-overlay";
import { rasterGuides } from "./raster-guides";
import { sameOriginFileUrl } from "./same-origin-url";
import type { Report } from "./types";

/** Transparent areas show as a checkerboard, the way image editors show them. */
const CHECKERBOARD = "repeating-conic-gradient(#e2e8f0 0% 25%, #ffffff 0% 50%) 50% / 20px 20px";

/** The raster's preview with trim, bleed and safe-area lines and the issues' boxes, in the file's own pixels. */
export function RasterViewer({ report, selected, onSelect }: { report: Report; selected: number | null; onSelect: (index: number) => void }) {
  const { widthPx, heightPx } = report.file;
  if (!report.previewUrl || !widthPx || !heightPx) {
    return <p className="rounded-md border border-slate-200 bg-slate-50 px-4 py-6 text-center text-sm text-slate-600">This file cannot be shown: see the issues.</p>;
  }
  const c = report.checkedAgainst;
  const canvas = c.canvasWidthInches && c.canvasHeightInches ? { widthIn: c.canvasWidthInches, heightIn: c.canvasHeightInches } : undefined;
  const g = rasterGuides(widthPx, heightPx, canvas, c.bleedMm ?? 0, report.issues.some((i) => i.code === "missing_bleed"));
  const guides: Guide[] = g ? [...(g.bleed ? [{ kind: "bleed" as const, rect: g.bleed }] : []), { kind: "trim", rect: g.trim }, { kind: "safe", rect: g.safe }] : [];
  const boxes = report.issues.flatMap((issue, index) => (issue.box?.unit === "px" ? [{ index, issue, rect: issue.box }] : []));
  return (
    <div className="space-y-3">
      <div className="relative border border-slate-200" style={{ background: CHECKERBOARD }} data-testid="raster-view">
        {/* eslint-disable-next-line @next/next/no-img-element -- a signed, expiring URL: nothing for next/image to optimise */}
        <img src={sameOriginFileUrl(report.previewUrl)} alt={`Preview of ${report.designId}`} className="block h-auto w-full" />
        <IssueOverlay width={widthPx} height={heightPx} guides={guides} boxes={boxes} selected={selected} onSelect={onSelect} />
      </div>
      <GuideLegend kinds={guides.map((x) => x.kind)} />
      {!canvas ? <p className="text-xs text-slate-500">No canvas size was given, so no trim or bleed lines are drawn.</p> : null}
    </div>
  );
}
