"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Field, SelectField } from "@/components/ui/field";
import { EmptyState, ListSkeleton } from "@/components/ui/list-states";
import { QueryError } from "@/components/ui/query-error";
import { fieldErrors } from "@/lib/client/field-errors";
import { useActionKey } from "@/lib/client/idempotency-key";
import { studioApi, unwrap, type ApiResponse } from "@/lib/client/typed-api";
import { BATCH_STEPS, type BatchStep } from "@/lib/services/production/values";
import { PrintFileTile } from "./print-file-tile";

type Batch = ApiResponse<"/v1/production/batches/{id}", "get">;
const NEXT: Record<string, BatchStep | undefined> = { ready: "sent", sent: "printed", printed: "shipped" };

/** A batch's status in the studio's words; held (every file on hold) waits for the fixes, it has not failed. */
const STATUS: Record<Batch["status"], { label: string; tone: string }> = {
  rendering: { label: "Rendering", tone: "bg-sky-100 text-sky-800" },
  ready: { label: "Ready for the lab", tone: "bg-emerald-100 text-emerald-800" },
  held: { label: "Waiting for fixes", tone: "bg-amber-100 text-amber-900" },
  sent: { label: "Sent", tone: "bg-slate-100 text-slate-700" },
  printed: { label: "Printed", tone: "bg-slate-100 text-slate-700" },
  shipped: { label: "Shipped", tone: "bg-slate-100 text-slate-700" },
  failed: { label: "Failed", tone: "bg-red-100 text-red-800" },
};

function StatusBadge({ status }: { status: Batch["status"] }) {
  const { label, tone } = STATUS[status];
  return (
    <span className={`rounded px-1.5 py-0.5 text-xs font-medium ${tone}`} data-testid="batch-status">
      {label}
    </span>
  );
}

/** Make a batch of a job's or a day's paid prints, shipped direct or in bulk to the school. */
function NewBatch({ onMade }: { onMade: (id: string) => void }) {
  const [shipping, setShipping] = useState<"direct" | "school">("school");
  const [jobId, setJobId] = useState("");
  const [paidOn, setPaidOn] = useState("");
  const key = useActionKey();
  const make = useMutation({
    mutationFn: () =>
      key.run(async (k) =>
        unwrap(await studioApi.POST("/v1/production/batches", { body: { shipping, ...(jobId ? { job_id: Number(jobId) } : {}), ...(paidOn ? { paid_on: paidOn } : {}) }, headers: { "idempotency-key": k } })),
      ),
    onSuccess: (b) => onMade(b.id),
  });
  const errors = fieldErrors(make.error);
  return (
    <Card title="New lab batch">
      <form
        className="flex flex-wrap items-end gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          make.mutate();
        }}
      >
        <SelectField id="shipping" label="Shipping" value={shipping} onChange={(e) => setShipping(e.target.value as "direct" | "school")} options={[{ value: "school", label: "To the school (bulk)" }, { value: "direct", label: "To each home" }]} error={errors.shipping} />
        <Field id="job_id" label="Job id" inputMode="numeric" value={jobId} onChange={(e) => setJobId(e.target.value)} error={errors.job_id} />
        <Field id="paid_on" label="Or paid on" type="date" value={paidOn} onChange={(e) => setPaidOn(e.target.value)} error={errors.paid_on} />
        <Button type="submit" disabled={make.isPending}>
          {make.isPending ? "Making…" : "Make batch"}
        </Button>
      </form>
      {make.error && !Object.keys(errors).length ? <p className="mt-2 text-sm text-red-700">{make.error.message}</p> : null}
      <p className="mt-2 text-xs text-slate-500">Takes every paid print not yet in a batch and not on hold, renders it from the original at its product&apos;s size and checks it with Preflight.</p>
    </Card>
  );
}

function Progress({ batch }: { batch: Pick<Batch, "progress" | "status"> }) {
  const { total, rendered, held } = batch.progress;
  const done = rendered + held;
  return (
    <div className="w-full">
      <div className="h-2 w-full overflow-hidden rounded bg-slate-100" role="progressbar" aria-valuemin={0} aria-valuemax={total} aria-valuenow={done}>
        <div className="h-2 bg-emerald-500" style={{ width: `${total ? (done / total) * 100 : 0}%` }} />
      </div>
      <p className="mt-1 text-xs text-slate-600">
        {done} of {total} rendered{held ? ` · ${held} on hold` : ""}
      </p>
    </div>
  );
}

/** One batch: its progress while rendering, downloads, the next step, and every file's picture. */
function BatchDetail({ id }: { id: string }) {
  const queryClient = useQueryClient();
  const queryKey = ["production", "batch", id];
  const { data: batch, error, isPending, refetch } = useQuery({
    queryKey,
    queryFn: async () => unwrap(await studioApi.GET("/v1/production/batches/{id}", { params: { path: { id } } })),
    refetchInterval: (q) => (q.state.data?.status === "rendering" ? 1500 : false),
  });
  const move = useMutation({
    mutationFn: async (status: BatchStep) => unwrap(await studioApi.PATCH("/v1/production/batches/{id}", { params: { path: { id } }, body: { status } })),
    onSuccess: (b) => {
      queryClient.setQueryData(queryKey, b);
      void queryClient.invalidateQueries({ queryKey: ["production", "list"] });
    },
  });
  if (isPending) return <ListSkeleton label="Loading the batch" />;
  if (error || !batch) return <QueryError title="Could not load the batch." error={error} onRetry={() => void refetch()} />;
  const next = NEXT[batch.status];
  return (
    <Card title={`Batch ${batch.id} · ${batch.status}`}>
      <div className="space-y-3">
        <StatusBadge status={batch.status} />
        <Progress batch={batch} />
        {batch.error ? <p className="text-sm text-red-700">{batch.error}</p> : null}
        {batch.status === "held" ? <p className="text-sm text-amber-900">Every print of this batch is on hold. Fix them below: each one fixed is rendered into this batch, and the batch is ready for the lab with the first.</p> : null}
        <div className="flex flex-wrap gap-3 text-sm">
          {batch.zip_url ? (
            <a className="rounded border border-slate-300 px-3 py-1.5 hover:bg-slate-50" href={batch.zip_url} download>
              Download ZIP for the lab
            </a>
          ) : null}
          {batch.slips_url ? (
            <a className="rounded border border-slate-300 px-3 py-1.5 hover:bg-slate-50" href={batch.slips_url} target="_blank" rel="noreferrer">
              Packing slips (PDF)
            </a>
          ) : null}
          {next ? (
            <Button onClick={() => move.mutate(next)} disabled={move.isPending}>
              Mark {next}
            </Button>
          ) : null}
        </div>
        {move.error ? <p className="text-sm text-red-700">{move.error.message}</p> : null}
        <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
          {(batch.files ?? []).map((f) => (
            <PrintFileTile key={f.id} file={f} />
          ))}
        </ul>
      </div>
    </Card>
  );
}

export function BatchesPage({ canChange }: { canChange: boolean }) {
  const [open, setOpen] = useState<string | null>(null);
  const { data, error, isPending, refetch } = useQuery({
    queryKey: ["production", "list"],
    queryFn: async () => unwrap(await studioApi.GET("/v1/production/batches", { params: { query: { limit: "50" } } })),
    refetchInterval: (q) => (q.state.data?.data.some((b) => b.status === "rendering") ? 2000 : false),
  });
  return (
    <div className="space-y-6">
      {canChange ? (
        <NewBatch
          onMade={(id) => {
            setOpen(id);
            void refetch();
          }}
        />
      ) : null}
      {isPending ? <ListSkeleton label="Loading batches" /> : null}
      {error ? <QueryError title="Could not load the batches." error={error} onRetry={() => void refetch()} /> : null}
      {data && data.data.length === 0 ? <EmptyState>No lab batches yet.</EmptyState> : null}
      {data && data.data.length ? (
        <ul className="space-y-2">
          {data.data.map((b) => (
            <li key={b.id} className="rounded border border-slate-200 p-3">
              <button type="button" className="flex w-full flex-wrap items-center justify-between gap-2 text-left" onClick={() => setOpen(open === b.id ? null : b.id)}>
                <span className="font-mono text-sm">{b.id}</span>
                <span className="text-sm text-slate-600">
                  {b.shipping === "school" ? "School bulk" : "Direct"} · {b.job_id ? `job ${b.job_id}` : `paid ${b.paid_on}`} · {b.order_count} {b.order_count === 1 ? "order" : "orders"} · <StatusBadge status={b.status} />
                </span>
                <Progress batch={b} />
              </button>
              {open === b.id ? (
                <div className="mt-3">
                  <BatchDetail id={b.id} />
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      <p className="text-xs text-slate-500">Steps: {BATCH_STEPS.join(" → ")}. Sent puts the batch&apos;s orders in production; shipped ships them.</p>
    </div>
  );
}
