"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { QueryError } from "@/components/ui/query-error";
import { apiFetch } from "@/lib/client/api-fetch";
import { isFinalStatus, PROJECT_STATUS_LABELS, PROJECT_TRANSITIONS, type ProjectStatus } from "@/lib/services/core/project-status";
import { fieldErrors } from "../field-errors";
import { formatDate, formatPrice, formatSize } from "../format";
import { ProjectStatusBadge } from "../status-badge";
import { productsQueryKey, projectsQueryKey, type Product, type Project } from "../types";

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
  const path = `/v1/projects/${encodeURIComponent(id)}`;
  const project = useQuery({ queryKey: [...projectsQueryKey, "one", id], queryFn: () => apiFetch<Project>(path) });
  const productId = project.data?.product_id;
  const product = useQuery({
    queryKey: [...productsQueryKey, "one", productId],
    queryFn: () => apiFetch<Product>(`/v1/products/${encodeURIComponent(productId!)}`),
    enabled: !!productId,
  });
  const update = useMutation({
    mutationFn: (patch: Partial<Omit<Project, "id" | "created_at" | "updated_at">>) => apiFetch<Project>(path, { method: "PATCH", json: patch }),
    onSuccess: (p) => {
      queryClient.setQueryData([...projectsQueryKey, "one", id], p);
      return queryClient.invalidateQueries({ queryKey: projectsQueryKey });
    },
  });

  if (project.isPending) return <div role="status" className="h-64 animate-pulse rounded-lg bg-slate-100" />;
  if (project.error || !project.data) return <QueryError title="Could not load the project." error={project.error} onRetry={() => void project.refetch()} />;
  const p = project.data;
  const closed = isFinalStatus(p.status);
  const errors = fieldErrors(update.error);

  return (
    <div className="space-y-6">
      <div>
        <Link href="/projects" className="text-sm text-brand-600 hover:underline">
          ← Projects
        </Link>
        <div className="mt-1 flex flex-wrap items-center gap-3">
          <h1 className="text-2xl font-semibold text-slate-900">{p.name}</h1>
          <ProjectStatusBadge status={p.status} />
        </div>
        <p className="mt-1 text-sm text-slate-500">
          <span className="font-mono">{p.id}</span> · created {formatDate(p.created_at)} · updated {formatDate(p.updated_at)}
        </p>
      </div>

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
        <PreflightLinkCard project={p} disabled={closed || update.isPending} error={errors.preflight_report_id} onLink={(rpt) => update.mutate({ preflight_report_id: rpt })} />
      </div>

      <DetailsCard project={p} disabled={closed} pending={update.isPending} errors={errors} onSave={(patch) => update.mutate(patch)} />
    </div>
  );
}

function PreflightLinkCard({ project, disabled, error, onLink }: { project: Project; disabled: boolean; error?: string; onLink: (id: string | null) => void }) {
  const [value, setValue] = useState("");
  return (
    <Card title="Preflight report">
      {project.preflight_report_id ? (
        <div className="flex flex-wrap items-center gap-3">
          <span className="font-mono text-sm" data-testid="linked-report">
            {project.preflight_report_id}
          </span>
          <Button type="button" variant="secondary" disabled={disabled} onClick={() => onLink(null)}>
            Unlink
          </Button>
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
