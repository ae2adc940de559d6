"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { FixPanel } from "./fix-panel";
import { IssueList } from "./issue-list";
import { PdfViewer } from "./pdf-viewer";
import { RasterViewer } from "./raster-viewer";
import { StatusBadge } from "./status-badge";
import { summaryText, type Report } from "./types";

/** A report: its status and checks, the file with the issues drawn on it, and the issues by severity. */
export function ReportView({ report, onDelete }: { report: Report; onDelete: () => void }) {
  const [selected, setSelected] = useState<number | null>(null);
  const [page, setPage] = useState(1);
  const select = (index: number) => {
    setSelected(index);
    const p = report.issues[index]?.page;
    if (p) setPage(p);
  };
  const c = report.checkedAgainst;
  const against = [
    c.canvasWidthInches ? `${c.canvasWidthInches} x ${c.canvasHeightInches} in canvas` : null,
    c.requiredDpi ? `${c.requiredDpi} ppi` : null,
    c.requiredColorMode ? c.requiredColorMode.toUpperCase() : null,
    c.bleedMm ? `${c.bleedMm} mm bleed` : null,
    c.productType ? c.productType.replace(/_/g, " ") : null,
  ].filter(Boolean);

  return (
    <Card>
      <div className="mb-4 flex flex-wrap items-start justify-between gap-4">
        <div>
          <h2 className="flex items-center gap-3 text-lg font-semibold text-slate-900">
            <span data-testid="report-design-id">{report.designId}</span> <StatusBadge status={report.status} />
          </h2>
          <p className="mt-1 text-sm text-slate-600">
            {report.fileType.toUpperCase()}
            {report.file.pageCount ? `, ${report.file.pageCount} pages` : ""}
            {report.file.widthPx ? `, ${report.file.widthPx} x ${report.file.heightPx} px` : ""} · checked against {against.join(", ") || "defaults"} · {summaryText(report.summary, true)}
          </p>
        </div>
        <Button type="button" variant="danger" onClick={onDelete}>
          Delete report
        </Button>
      </div>
      <div className="grid gap-6 lg:grid-cols-5">
        <div className="lg:col-span-3">
          {report.fileType === "pdf" ? <PdfViewer report={report} page={page} onPage={setPage} selected={selected} onSelect={select} /> : <RasterViewer report={report} selected={selected} onSelect={select} />}
        </div>
        <div className="lg:col-span-2">
          <IssueList issues={report.issues} selected={selected} onSelect={select} />
          <FixPanel key={report.reportId} report={report} />
        </div>
      </div>
    </Card>
  );
}
