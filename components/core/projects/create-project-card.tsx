"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Field, SelectField } from "@/components/ui/field";
import { useActionKey } from "@/lib/client/idempotency-key";
import { fieldErrors } from "@/lib/client/field-errors";
import { formError } from "../field-errors";
import { projectsQueryKey, type Project } from "../types";
import { useProductOptions } from "./use-product-options";
import { studioApi, unwrap } from "@/lib/client/typed-api";

const FIELDS = ["name", "product_id", "customer_email", "design_file_url", "preflight_report_id"];
const blankToUndefined = (s: string) => (s.trim() === "" ? undefined : s.trim());

/** A new draft project for one of the account's active products. */
export function CreateProjectCard() {
  const queryClient = useQueryClient();
  const products = useProductOptions("active");
  const [v, setV] = useState({ name: "", product_id: "", customer_email: "", design_file_url: "", preflight_report_id: "" });
  const [created, setCreated] = useState<Project>();
  const action = useActionKey();
  const create = useMutation({
    mutationFn: () =>
      action.run((idempotencyKey) =>
        studioApi
          .POST("/v1/projects", {
            headers: { "idempotency-key": idempotencyKey },
            body: {
              name: v.name,
              product_id: v.product_id || products.data?.data[0]?.id || "",
              customer_email: blankToUndefined(v.customer_email),
              design_file_url: blankToUndefined(v.design_file_url),
              preflight_report_id: blankToUndefined(v.preflight_report_id),
            },
          })
          .then(unwrap),
      ),
    onSuccess: async (p) => {
      setCreated(p);
      setV({ name: "", product_id: v.product_id, customer_email: "", design_file_url: "", preflight_report_id: "" });
      await queryClient.invalidateQueries({ queryKey: projectsQueryKey });
    },
  });
  const errors = fieldErrors(create.error, { single: true });
  const topError = formError(create.error, errors, FIELDS);
  const set = (k: keyof typeof v) => (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) => setV({ ...v, [k]: e.target.value });
  const options = products.data?.data ?? [];

  return (
    <Card title="New project">
      {products.isPending ? (
        <div role="status" className="h-24 animate-pulse rounded bg-slate-100" />
      ) : options.length === 0 ? (
        <p className="text-sm text-slate-600">
          Projects are made from a product. <Link href="/products" className="text-brand-600 hover:underline">Create an active product</Link> first.
        </p>
      ) : (
        <form
          noValidate
          className="space-y-4"
          onSubmit={(e) => {
            e.preventDefault();
            create.mutate();
          }}
        >
          <div className="grid gap-4 sm:grid-cols-2">
            <Field id="project-name" label="Project name" value={v.name} onChange={set("name")} error={errors.name} maxLength={200} required />
            <SelectField
              id="project-product"
              label="Product"
              value={v.product_id || options[0]!.id}
              onChange={set("product_id")}
              error={errors.product_id}
              options={options.map((p) => ({ value: p.id, label: `${p.name} (${p.sku})` }))}
            />
            <Field id="project-email" label="Customer email (optional)" type="email" value={v.customer_email} onChange={set("customer_email")} error={errors.customer_email} />
            <Field
              id="project-design"
              label="Design file URL (optional)"
              type="url"
              placeholder="https://…"
              value={v.design_file_url}
              onChange={set("design_file_url")}
              error={errors.design_file_url}
            />
            <Field
              id="project-report"
              label="Preflight report id (optional)"
              placeholder="rpt_…"
              value={v.preflight_report_id}
              onChange={set("preflight_report_id")}
              error={errors.preflight_report_id}
            />
          </div>
          {topError ? (
            <p role="alert" className="text-sm text-red-600">
              {topError}
            </p>
          ) : null}
          <div className="flex items-center gap-3">
            <Button type="submit" disabled={create.isPending}>
              {create.isPending ? "Creating…" : "Create draft"}
            </Button>
            {created ? (
              <p role="status" className="text-sm text-emerald-700">
                Created <Link href={`/projects/${encodeURIComponent(created.id)}`} className="underline">{created.name}</Link> as a draft.
              </p>
            ) : null}
          </div>
        </form>
      )}
    </Card>
  );
}
