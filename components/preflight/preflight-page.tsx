"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Card } from "@/components/ui/card";
import { studioApi, unwrap } from "@/lib/client/typed-api";
import { useQueryParam } from "@/lib/client/use-query-param";
import { CheckForm } from "./check-form";
import { DpiCalculator } from "./dpi-calculator";
import { RECENT_REPORTS_KEY, RecentReports } from "./recent-reports";
import { ReportView } from "./report-view";
import type { Report } from "./types";
import { UsedByProjects } from "./used-by-projects";

/** The preflight viewer: check a file or open a recent report, see its issues on the page. */
export function PreflightPage() {
  const client = useQueryClient();
  // `?report=` opens a report (the project page links here). Opening one adds a history
  // entry, so Back returns to the page as it was instead of leaving the studio.
  const [reportParam, setSelectedId] = useQueryParam("report");
  const selectedId = reportParam && /^rpt_[A-Za-z0-9]{1,60}$/.test(reportParam) ? reportParam : null;
  const report = useQuery({
    queryKey: ["preflight", "report", selectedId],
    queryFn: async () => unwrap(await studioApi.GET("/v1/services/preflight/checks/{reportId}", { params: { path: { reportId: selectedId! } } })).data,
    enabled: !!selectedId,
  });

  function checked(r: Report) {
    client.setQueryData(["preflight", "report", r.reportId], r);
    setSelectedId(r.reportId);
    void client.invalidateQueries({ queryKey: RECENT_REPORTS_KEY });
  }

  async function remove(id: string) {
    unwrap(await studioApi.DELETE("/v1/services/preflight/checks/{reportId}", { params: { path: { reportId: id } } }));
    setSelectedId(null, "replace");
    client.removeQueries({ queryKey: ["preflight", "report", id] });
    await client.invalidateQueries({ queryKey: RECENT_REPORTS_KEY });
  }

  const shown = report.data;
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">Preflight</h1>
        <p className="mt-1 text-sm text-slate-600">Check a print file for resolution, bleed, colour, fonts and transparency before it goes to press. Checks are included in your plan; no tokens are used.</p>
      </div>
      <div className="grid gap-6 lg:grid-cols-3">
        <Card title="Check a file">
          <CheckForm onChecked={checked} />
        </Card>
        <Card title="Recent reports">
          <RecentReports selectedId={selectedId} onSelect={setSelectedId} />
        </Card>
        <Card title="DPI calculator">
          <DpiCalculator
            key={shown?.reportId ?? "none"}
            initial={shown ? { widthPx: shown.file.widthPx, heightPx: shown.file.heightPx, canvasWidthInches: shown.checkedAgainst.canvasWidthInches, canvasHeightInches: shown.checkedAgainst.canvasHeightInches, productType: shown.checkedAgainst.productType } : undefined}
          />
        </Card>
      </div>
      {selectedId && report.isPending ? <p className="text-sm text-slate-500">Loading report…</p> : null}
      {report.error ? (
        <p role="alert" className="text-sm text-red-700">
          Could not load the report: {report.error.message}
        </p>
      ) : null}
      {shown ? <ReportView key={shown.reportId} report={shown} onDelete={() => remove(shown.reportId)} /> : null}
      {shown ? <UsedByProjects reportId={shown.reportId} /> : null}
    </div>
  );
}
