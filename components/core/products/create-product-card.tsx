"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { useActionKey } from "@/lib/client/idempotency-key";
import { productsQueryKey } from "../types";
import { ProductForm, type ProductInput } from "./product-form";
import { studioApi, unwrap, type ApiBody } from "@/lib/client/typed-api";

/** "New product" folds open into the form; the list refreshes after a create. */
export function CreateProductCard() {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [formKey, setFormKey] = useState(0);
  const [created, setCreated] = useState<string>();
  const action = useActionKey();
  const create = useMutation({
    mutationFn: (input: ProductInput) => action.run(async (idempotencyKey) => unwrap(await studioApi.POST("/v1/products", { body: input as ApiBody<"/v1/products", "post">, headers: { "idempotency-key": idempotencyKey } }))),
    onSuccess: async (p) => {
      setCreated(p.name);
      setFormKey((k) => k + 1);
      create.reset();
      await queryClient.invalidateQueries({ queryKey: productsQueryKey });
    },
  });

  if (!open) {
    return (
      <div className="flex items-center gap-3">
        <Button type="button" onClick={() => setOpen(true)}>
          New product
        </Button>
        {created ? (
          <p role="status" className="text-sm text-emerald-700">
            Created {created}.
          </p>
        ) : null}
      </div>
    );
  }
  return (
    <Card title="New product" actions={<Button type="button" variant="secondary" onClick={() => setOpen(false)}>Close</Button>}>
      {created ? (
        <p role="status" className="mb-3 text-sm text-emerald-700">
          Created {created}.
        </p>
      ) : null}
      <ProductForm key={formKey} submitLabel="Create product" pending={create.isPending} error={create.error} onSubmit={(input) => create.mutate(input)} />
    </Card>
  );
}
