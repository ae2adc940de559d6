"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { QueryError } from "@/components/ui/query-error";
import { ApiRequestError } from "@/lib/client/api-fetch";
import { isFinalStatus, PROJECT_STATUS_LABELS, PROJECT_TRANSITIONS, type ProjectStatus } from "@/lib/services/core/project-status";
import { fieldErrors } from "@/lib/client/field-errors";
import { formatDate, formatPrice, formatSize } from "../format";
import { ProjectStatusBadge } from "../status-badge";
import { productsQueryKey, projectsQueryKey, type Project } from "../types";
import { DetailHeader } from "@/components/ui/detail-header";
import { studioApi, unwrap, type ApiBody, type ApiResponse } from "@/lib/client/typed-api";

type ProjectPatch = ApiBody<"/v1/projects/{id}", "patch">;

const MOVE_LABELS: Partial<Record<ProjectStatus, string>> = {
  submitted: "Submit for review",
  approved: "Approve",
  in_production: "Start production",
  shipped: "Mark shipped",
  cancelled: "Cancel project",
};

/** One project: its product, status moves allowed from here, details, and the preflight report link. */
export function ProjectDetail({ id }: { id: string }) {
  const queryClient = useQueryClient();
  const byId = { params: { path: { id } } };
  const project = useQuery({ queryKey: [...projectsQueryKey, "one", id], queryFn: async () => unwrap(await studioApi.GET("/v1/projects/{id}", byId)) });
  const productId = project.data?.product_id;
  const product = useQuery({
    queryKey: [...productsQueryKey, "one", productId],
    queryFn: async () => unwrap(await studioApi.GET("/v1/products/{id}", { params: { path: { id: productId! } } })),
    enabled: !!productId,
  });
  const report = useLinkedReport(project.data?.preflight_report_id ?? null);
  const [reason, setReason] = useState("");
  const update = useMutation({
    mutationFn: async (patch: ProjectPatch) => unwrap(await studioApi.PATCH("/v1/projects/{id}", { ...byId, body: patch })),
    onSuccess: (p) => {
      queryClient.setQueryData([...projectsQueryKey, "one", id], p);
      return queryClient.invalidateQueries({ queryKey: projectsQueryKey });
    },
  });

  if (project.isPending) return <div role="status" className="h-64 animate-pulse rounded-lg bg-slate-100" />;
  if (project.error || !project.data) return <QueryError title="Could not load the project." error={project.error} onRetry={() => void project.refetch()} />;
  const p = project.data;
  const closed = isFinalStatus(p.status);
  const errors = fieldErrors(update.error, { single: true });
  // The preflight gate (409 PREFLIGHT_HAS_ERRORS): the move waits for a reason.
  const gate =
    update.error instanceof ApiRequestError && update.error.body.error === "PREFLIGHT_HAS_ERRORS"
      ? { message: update.error.message, to: (update.error.body.details as { status: ProjectStatus }).status }
      : null;
  const reasonError = errors["override.reason"];
  const gatedAhead = report.data && report.data.summary.errors > 0 && PROJECT_TRANSITIONS[p.status].some((to) => to === "submitted" || to === "approved");

  return (
    <div className="space-y-6">
      <DetailHeader back={{ href: "/projects", label: "Projects" }} title={p.name} badge={<ProjectStatusBadge status={p.status} />}>
        <p className="mt-1 text-sm text-slate-500">
          <span className="font-mono">{p.id}</span> · created {formatDate(p.created_at)} · updated {formatDate(p.updated_at)}
        </p>
      </DetailHeader>

      <Card title="Status">
        {closed ? (
          <p className="text-sm text-slate-600">This project is {PROJECT_STATUS_LABELS[p.status].toLowerCase()}: it is closed and can no longer change.</p>
        ) : (
          <div className="flex flex-wrap items-center gap-2">
            {PROJECT_TRANSITIONS[p.status].map((to) => (
              <Button key={to} type="button" variant={to === "cancelled" ? "danger" : "primary"} disabled={update.isPending} onClick={() => update.mutate({ status: to })}>
                {MOVE_LABELS[to] ?? PROJECT_STATUS_LABELS[to]}
              </Button>
            ))}
          </div>
        )}
        {update.error && errors.status ? (
          <p role="alert" className="mt-2 text-sm text-red-600">
            {update.error.message}
          </p>
        ) : null}
        {gatedAhead && !gate ? (
          <p className="mt-2 text-sm text-amber-800" data-testid="gate-note">
            The linked preflight report has {report.data!.summary.errors} error{report.data!.summary.errors === 1 ? "" : "s"}: submitting or approving asks for a reason, which is recorded.
          </p>
        ) : null}
        {gate || (reasonError && update.variables?.override) ? (
          <form
            noValidate
            className="mt-3 space-y-2 rounded-md border border-amber-300 bg-amber-50 p-3"
            aria-label="Preflight override"
            onSubmit={(e) => {
              e.preventDefault();
              const to = gate?.to ?? (update.variables?.status as ProjectStatus);
              update.mutate({ status: to, override: { reason } });
            }}
          >
            <p role="alert" className="text-sm text-amber-900" data-testid="gate-message">
              {gate?.message ?? "The move needs a reason."}
            </p>
            <Field id="override-reason" label="Why go ahead anyway? (recorded on the project)" value={reason} onChange={(e) => setReason(e.target.value)} error={reasonError} maxLength={500} />
            <div className="flex gap-2">
              <Button type="submit" variant="danger" disabled={update.isPending}>
                {(gate?.to ?? update.variables?.status) === "approved" ? "Approve despite the errors" : "Submit despite the errors"}
              </Button>
              <Button type="button" variant="secondary" onClick={() => update.reset()}>
                Cancel
              </Button>
            </div>
          </form>
        ) : null}
        {p.preflight_overrides?.length ? (
          <div className="mt-4">
            <h3 className="text-xs font-semibold uppercase text-slate-500">Preflight overrides</h3>
            <ul className="mt-1 space-y-1 text-sm text-slate-700" data-testid="overrides">
              {p.preflight_overrides.map((o) => (
                <li key={o.at}>
                  {PROJECT_STATUS_LABELS[o.status as ProjectStatus] ?? o.status} on {formatDate(o.at)} despite {o.errors} error{o.errors === 1 ? "" : "s"} in {o.report_id}: “{o.reason}”
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        <ol className="mt-4 flex flex-wrap gap-2 text-xs text-slate-500" aria-label="Lifecycle">
          {(["draft", "submitted", "approved", "in_production", "shipped"] as const).map((s, i) => (
            <li key={s} className={s === p.status ? "font-semibold text-slate-900" : ""}>
              {i > 0 ? "→ " : ""}
              {PROJECT_STATUS_LABELS[s]}
            </li>
          ))}
        </ol>
      </Card>

      <div className="grid gap-6 lg:grid-cols-2">
        <Card title="Product">
          {product.data ? (
            <dl className="grid grid-cols-[8rem_1fr] gap-y-1 text-sm">
              <dt className="text-slate-500">Name</dt>
              <dd>
                <Link href={`/products/${encodeURIComponent(product.data.id)}`} className="text-brand-600 hover:underline">
                  {product.data.name}
                </Link>
              </dd>
              <dt className="text-slate-500">SKU</dt>
              <dd className="font-mono text-xs">{product.data.sku}</dd>
              <dt className="text-slate-500">Size</dt>
              <dd>
                {formatSize(product.data.width_in, product.data.height_in)}, {product.data.bleed_mm} mm bleed
              </dd>
              <dt className="text-slate-500">Print</dt>
              <dd>
                {product.data.color_mode.toUpperCase()}, at least {product.data.min_ppi} ppi
              </dd>
              <dt className="text-slate-500">Price</dt>
              <dd>{formatPrice(product.data.price, product.data.currency)}</dd>
            </dl>
          ) : (
            <p className="font-mono text-sm text-slate-600">{p.product_id}</p>
          )}
        </Card>
        <PreflightLinkCard project={p} report={report} disabled={closed || update.isPending} error={errors.preflight_report_id} onLink={(rpt) => update.mutate({ preflight_report_id: rpt })} />
      </div>

      <DetailsCard project={p} disabled={closed} pending={update.isPending} errors={errors} onSave={(patch) => update.mutate(patch)} />
    </div>
  );
}

/** The linked report as GET /v1/services/preflight/checks/{reportId} returns it (its verdict and counts are shown). */
type ReportSummary = ApiResponse<"/v1/services/preflight/checks/{reportId}", "get">["data"];

/** The linked report's verdict and counts (GET /v1/services/preflight/checks/{id}). */
function useLinkedReport(reportId: string | null) {
  return useQuery({
    queryKey: ["preflight", "report-summary", reportId],
    queryFn: async () => unwrap(await studioApi.GET("/v1/services/preflight/checks/{reportId}", { params: { path: { reportId: reportId! } } })).data,
    enabled: !!reportId,
  });
}

const VERDICT: Record<ReportSummary["status"], { label: string; className: string }> = {
  pass: { label: "Passed", className: "bg-emerald-100 text-emerald-800" },
  warning: { label: "Passed with warnings", className: "bg-amber-100 text-amber-800" },
  fail: { label: "Failed", className: "bg-red-100 text-red-800" },
};

function PreflightLinkCard({ project, report, disabled, error, onLink }: { project: Project; report: ReturnType<typeof useLinkedReport>; disabled: boolean; error?: string; onLink: (id: string | null) => void }) {
  const [value, setValue] = useState("");
  const r = report.data;
  return (
    <Card title="Preflight report">
      {project.preflight_report_id ? (
        <div className="space-y-2" data-testid="linked-report-card">
          {r ? (
            <div className="flex flex-wrap items-center gap-2">
              <span className={`rounded-full px-2.5 py-0.5 text-xs font-medium ${VERDICT[r.status].className}`} data-testid="report-verdict">
                {VERDICT[r.status].label}
              </span>
              <span className="text-sm text-slate-700" data-testid="report-counts">
                {r.summary.errors} error{r.summary.errors === 1 ? "" : "s"}, {r.summary.warnings} warning{r.summary.warnings === 1 ? "" : "s"}
              </span>
              <span className="text-xs text-slate-500">· {r.designId}</span>
            </div>
          ) : report.error ? (
            <p className="text-sm text-slate-600">The report could not be read: {report.error.message}</p>
          ) : (
            <p className="text-sm text-slate-500">Loading the report…</p>
          )}
          <div className="flex flex-wrap items-center gap-3">
            <Link href={`/preflight?report=${encodeURIComponent(project.preflight_report_id)}`} className="font-mono text-sm text-brand-700 hover:underline" data-testid="linked-report">
              {project.preflight_report_id}
            </Link>
            <Link href={`/preflight?report=${encodeURIComponent(project.preflight_report_id)}`} className="text-sm text-brand-700 hover:underline">
              Open in the preflight viewer
            </Link>
            <Button type="button" variant="secondary" disabled={disabled} onClick={() => onLink(null)}>
              Unlink
            </Button>
          </div>
        </div>
      ) : (
        <form
          noValidate
          className="flex flex-col gap-3 sm:flex-row sm:items-start"
          onSubmit={(e) => {
            e.preventDefault();
            onLink(value.trim());
          }}
        >
          <div className="flex-1">
            <Field id="link-report" label="Report id" placeholder="rpt_…" value={value} onChange={(e) => setValue(e.target.value)} error={error} disabled={disabled} />
          </div>
          <Button type="submit" disabled={disabled || !value.trim()} className="sm:mt-6">
            Link report
          </Button>
        </form>
      )}
      <p className="mt-3 text-xs text-slate-500">A report from a preflight check of this account. Deleting the report unlinks it.</p>
    </Card>
  );
}

function DetailsCard({
  project,
  disabled,
  pending,
  errors,
  onSave,
}: {
  project: Project;
  disabled: boolean;
  pending: boolean;
  errors: Record<string, string>;
  onSave: (patch: { name: string; customer_email: string | null; design_file_url: string | null }) => void;
}) {
  const [v, setV] = useState({ name: project.name, customer_email: project.customer_email ?? "", design_file_url: project.design_file_url ?? "" });
  return (
    <Card title="Details">
      <form
        noValidate
        className="space-y-4"
        onSubmit={(e) => {
          e.preventDefault();
          onSave({ name: v.name, customer_email: v.customer_email.trim() || null, design_file_url: v.design_file_url.trim() || null });
        }}
      >
        <div className="grid gap-4 sm:grid-cols-3">
          <Field id="detail-name" label="Project name" value={v.name} onChange={(e) => setV({ ...v, name: e.target.value })} error={errors.name} disabled={disabled} />
          <Field id="detail-email" label="Customer email" type="email" value={v.customer_email} onChange={(e) => setV({ ...v, customer_email: e.target.value })} error={errors.customer_email} disabled={disabled} />
          <Field id="detail-design" label="Design file URL" type="url" value={v.design_file_url} onChange={(e) => setV({ ...v, design_file_url: e.target.value })} error={errors.design_file_url} disabled={disabled} />
        </div>
        <Button type="submit" disabled={disabled || pending}>
          Save details
        </Button>
      </form>
    </Card>
  );
}
