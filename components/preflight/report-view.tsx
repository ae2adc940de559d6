"use client";

import { useState } from "react";
import { CheckPlan } from "./check-plan";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { FixPanel } from "./fix-panel";
import { IssueList } from "./issue-list";
import { PdfViewer } from "./pdf-viewer";
import { RasterViewer } from "./raster-viewer";
import { StatusBadge } from "./status-badge";
import { checkPlan, summaryText, type Report } from "./types";

/** A report: its status and checks, the file with the issues drawn on it, and the issues by severity. */
export function ReportView({ report, onDelete }: { report: Report; onDelete: () => Promise<void> | void }) {
  const [selected, setSelected] = useState<number | null>(null);
  const [page, setPage] = useState(1);
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  // "Fix with AI" on an issue: the fix panel selects that fix and comes into view.
  const [fixFocus, setFixFocus] = useState<{ fixType: string; n: number } | null>(null);
  const select = (index: number) => {
    setSelected(index);
    const p = report.issues[index]?.page;
    if (p) setPage(p);
  };
  const plan = checkPlan(report.checkedAgainst, report.fileType);
  const canFix = report.issues.some((i) => i.fixTypes.length > 0);

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
            {report.file.widthPx ? `, ${report.file.widthPx} x ${report.file.heightPx} px` : ""} · {summaryText(report.summary, true)}
          </p>
        </div>
        {confirming ? (
          <div role="alertdialog" aria-label="Delete this report?" className="flex flex-wrap items-center gap-2 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
            <span>Delete this report? It cannot be undone.</span>
            <Button
              type="button"
              variant="danger"
              disabled={deleting}
              onClick={async () => {
                setDeleting(true);
                try {
                  await onDelete();
                } finally {
                  setDeleting(false);
                }
              }}
            >
              {deleting ? "Deleting…" : "Yes, delete"}
            </Button>
            <Button type="button" variant="secondary" disabled={deleting} onClick={() => setConfirming(false)}>
              Keep it
            </Button>
          </div>
        ) : (
          <Button type="button" variant="danger" onClick={() => setConfirming(true)}>
            Delete report
          </Button>
        )}
      </div>
      <div className="mb-4">
        <CheckPlan plan={plan} title="Checked against" testId="report-plan" />
      </div>
      <div className="grid gap-6 lg:grid-cols-5">
        <div className="lg:col-span-3">
          {report.fileType === "pdf" ? <PdfViewer report={report} page={page} onPage={setPage} selected={selected} onSelect={select} /> : <RasterViewer report={report} selected={selected} onSelect={select} />}
        </div>
        <div className="lg:col-span-2">
          <IssueList issues={report.issues} selected={selected} onSelect={select} onFix={canFix ? (fixType) => setFixFocus((f) => ({ fixType, n: (f?.n ?? 0) + 1 })) : undefined} />
          <FixPanel key={report.reportId} report={report} focus={fixFocus} />
        </div>
      </div>
    </Card>
  );
}
