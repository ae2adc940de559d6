"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { QueryError } from "@/components/ui/query-error";
import { formatDate } from "../format";
import { ProductStatusBadge } from "../status-badge";
import { productsQueryKey, type Product } from "../types";
import { ProductForm, type ProductInput } from "./product-form";
import { DetailHeader } from "@/components/ui/detail-header";
import { studioApi, unwrap, type ApiBody } from "@/lib/client/typed-api";

/** One product: edit, archive or restore, delete (refused while projects use it). */
export function ProductEditor({ id }: { id: string }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const byId = { params: { path: { id } } };
  const { data, error, isPending, refetch } = useQuery({ queryKey: [...productsQueryKey, "one", id], queryFn: async () => unwrap(await studioApi.GET("/v1/products/{id}", byId)) });
  const [saved, setSaved] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);

  const refresh = () => queryClient.invalidateQueries({ queryKey: productsQueryKey });
  const save = useMutation({
    mutationFn: async (input: Partial<ProductInput> & { status?: Product["status"] }) => unwrap(await studioApi.PATCH("/v1/products/{id}", { ...byId, body: input as ApiBody<"/v1/products/{id}", "patch"> })),
    onSuccess: async () => {
      setSaved(true);
      await refresh();
    },
  });
  const remove = useMutation({
    mutationFn: async () => unwrap(await studioApi.DELETE("/v1/products/{id}", byId)),
    onSuccess: async () => {
      await refresh();
      router.push("/products");
    },
  });

  if (isPending) return <div role="status" className="h-64 animate-pulse rounded-lg bg-slate-100" />;
  if (error || !data) return <QueryError title="Could not load the product." error={error} onRetry={() => void refetch()} />;

  return (
    <div className="space-y-6">
      <DetailHeader back={{ href: "/products", label: "Products" }} title={data.name} badge={<ProductStatusBadge status={data.status} isPublic={data.is_public} />}>
        <p className="mt-1 text-sm text-slate-500">
          <span className="font-mono">{data.id}</span> · created {formatDate(data.created_at)} · updated {formatDate(data.updated_at)}
        </p>
      </DetailHeader>
      <Card title="Details">
        {saved && !save.isPending && !save.error ? (
          <p role="status" className="mb-3 text-sm text-emerald-700">
            Saved.
          </p>
        ) : null}
        <ProductForm
          key={data.updated_at}
          initial={data}
          submitLabel="Save changes"
          pending={save.isPending}
          error={save.error}
          onSubmit={(input) => {
            setSaved(false);
            save.mutate(input);
          }}
        />
      </Card>
      <Card title="Availability">
        <div className="flex flex-wrap items-center gap-3">
          <Button type="button" variant="secondary" disabled={save.isPending} onClick={() => save.mutate({ status: data.status === "active" ? "archived" : "active" })}>
            {data.status === "active" ? "Archive product" : "Restore product"}
          </Button>
          <p className="text-sm text-slate-600">Archived products stay on existing projects but cannot be chosen for new ones.</p>
        </div>
        <div className="mt-4 flex flex-wrap items-center gap-3 border-t border-slate-100 pt-4">
          {confirmDelete ? (
            <>
              <span className="text-sm text-slate-700">Delete {data.name} for good?</span>
              <Button type="button" variant="danger" disabled={remove.isPending} onClick={() => remove.mutate()}>
                {remove.isPending ? "Deleting…" : "Confirm delete"}
              </Button>
              <Button type="button" variant="secondary" onClick={() => (setConfirmDelete(false), remove.reset())}>
                Cancel
              </Button>
            </>
          ) : (
            <Button type="button" variant="danger" onClick={() => setConfirmDelete(true)}>
              Delete product
            </Button>
          )}
          {remove.error ? (
            <p role="alert" className="w-full text-sm text-red-600">
              {remove.error.message}
            </p>
          ) : null}
        </div>
      </Card>
    </div>
  );
}
