"use client";

import { useEffect, useRef, useState } from "react";
import type { PDFDocumentProxy } from "pdfjs-dist";
import { Button } from "@/components/ui/button";
import { GuideLegend, IssueOverlay, type Guide } from "./issue-overlay";
import { openPdf } from "./load-pdfjs";
import type { Rect } from "./raster-guides";
import { SAFE_MARGIN_PT } from "@/lib/services/preflight/safe-margin";
import { issueBoxes, type Report } from "./types";

/** Rendered at this many CSS pixels wide (times the screen's pixel ratio), then scaled to fit. */
const RENDER_WIDTH = 900;

type Shown = { width: number; height: number; toRect: (box: number[]) => Rect };

/**
 * One page of the checked PDF, drawn by pdf.js in the browser, with the page's
 * trim, bleed and safe-area lines and the boxes of the issues on that page.
 */
export function PdfViewer({ report, page, onPage, selected, onSelect }: { report: Report; page: number; onPage: (page: number) => void; selected: number | null; onSelect: (index: number) => void }) {
  const [doc, setDoc] = useState<PDFDocumentProxy | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [shown, setShown] = useState<Shown | null>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    let cancelled = false;
    let opened: PDFDocumentProxy | undefined;
    // The viewer is keyed by report, so a new file always starts from the empty state.
    openPdf(report.fileUrl)
      .then((d) => {
        opened = d;
        if (cancelled) void d.destroy();
        else setDoc(d);
      })
      .catch((err: unknown) => !cancelled && setError(err instanceof Error ? err.message : "The PDF could not be opened."));
    return () => {
      cancelled = true;
      void opened?.destroy();
    };
  }, [report.fileUrl]);

  useEffect(() => {
    if (!doc || !canvasRef.current) return;
    let cancelled = false;
    let task: ReturnType<Awaited<ReturnType<PDFDocumentProxy["getPage"]>>["render"]> | undefined;
    (async () => {
      const p = await doc.getPage(Math.min(page, doc.numPages));
      const base = p.getViewport({ scale: 1 });
      const viewport = p.getViewport({ scale: RENDER_WIDTH / base.width });
      const ratio = window.devicePixelRatio || 1;
      const canvas = canvasRef.current!;
      canvas.width = Math.floor(viewport.width * ratio);
      canvas.height = Math.floor(viewport.height * ratio);
      task = p.render({ canvas, canvasContext: canvas.getContext("2d")!, viewport, transform: ratio === 1 ? undefined : [ratio, 0, 0, ratio, 0, 0] });
      await task.promise;
      if (cancelled) return;
      setShown({
        width: viewport.width,
        height: viewport.height,
        toRect: ([x0, y0, x1, y1]) => {
          const [a, b, c, d] = viewport.convertToViewportRectangle([x0!, y0!, x1!, y1!]);
          return { x: Math.min(a!, c!), y: Math.min(b!, d!), width: Math.abs(c! - a!), height: Math.abs(d! - b!) };
        },
      });
    })().catch((err: unknown) => {
      if (!cancelled && (err as { name?: string })?.name !== "RenderingCancelledException") setError(err instanceof Error ? err.message : "The page could not be drawn.");
    });
    return () => {
      cancelled = true;
      task?.cancel();
    };
  }, [doc, page]);

  const pageCount = doc?.numPages ?? report.file.pageCount ?? 1;
  const facts = report.file.pages?.find((p) => p.page === page);
  const guides: Guide[] = [];
  if (shown && facts) {
    const [tx0, ty0, tx1, ty1] = facts.trimBox as [number, number, number, number];
    if (facts.bleedBox.some((v, i) => v !== facts.trimBox[i])) guides.push({ kind: "bleed", rect: shown.toRect(facts.bleedBox) });
    guides.push({ kind: "trim", rect: shown.toRect(facts.trimBox) });
    guides.push({ kind: "safe", rect: shown.toRect([tx0 + SAFE_MARGIN_PT, ty0 + SAFE_MARGIN_PT, tx1 - SAFE_MARGIN_PT, ty1 - SAFE_MARGIN_PT]) });
  }
  const boxes = shown ? report.issues.flatMap((issue, index) => issueBoxes(issue, page).map((b) => ({ index, issue, rect: shown.toRect([b.x, b.y, b.x + b.width, b.y + b.height]) }))) : [];

  return (
    <div className="space-y-3">
      <div className="flex items-center justify-between gap-3">
        <Button type="button" variant="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          Previous
        </Button>
        <span className="text-sm text-slate-600" data-testid="pdf-page-label">
          Page {page} of {pageCount}
        </span>
        <Button type="button" variant="secondary" disabled={page >= pageCount} onClick={() => onPage(page + 1)}>
          Next
        </Button>
      </div>
      {error ? (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-700">
          {error}
        </p>
      ) : (
        <div className="relative border border-slate-200 bg-slate-100" data-testid="pdf-page" data-rendered={shown ? "true" : "false"} data-page={page}>
          <canvas ref={canvasRef} className="block h-auto w-full" />
          {shown ? <IssueOverlay width={shown.width} height={shown.height} guides={guides} boxes={boxes} selected={selected} onSelect={onSelect} /> : null}
        </div>
      )}
      <GuideLegend kinds={guides.map((g) => g.kind)} />
    </div>
  );
}
