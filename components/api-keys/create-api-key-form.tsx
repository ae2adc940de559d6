"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { fieldErrors } from "@/lib/client/field-errors";
import { studioApi, unwrap } from "@/lib/client/typed-api";
import { useActionKey } from "@/lib/client/idempotency-key";
import { apiKeysQueryKey, type CreatedApiKey } from "./types";

const nameError = (err: unknown): string | undefined => fieldErrors(err).name;

export function CreateApiKeyForm({ onCreated }: { onCreated: (key: CreatedApiKey) => void }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const action = useActionKey();
  const create = useMutation({
    mutationFn: (body: { name: string }) => action.run(async (idempotencyKey) => unwrap(await studioApi.POST("/v1/api-keys", { body, headers: { "idempotency-key": idempotencyKey } }))),
    onSuccess: async (key) => {
      setName("");
      onCreated(key);
      await queryClient.invalidateQueries({ queryKey: apiKeysQueryKey });
    },
  });

  const fieldError = nameError(create.error);
  const formError = create.error && !fieldError ? create.error.message : undefined;

  function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    create.mutate({ name });
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-3">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
        <div className="flex-1">
          <Field
            id="api-key-name"
            name="name"
            label="Key name"
            placeholder="e.g. Production server"
            maxLength={100}
            autoComplete="off"
            required
            value={name}
            onChange={(e) => setName(e.target.value)}
            error={fieldError}
          />
        </div>
        <Button type="submit" disabled={create.isPending} className="sm:mt-6">
          {create.isPending ? "Creating…" : "Create key"}
        </Button>
      </div>
      {formError ? (
        <p role="alert" className="text-sm text-red-600">
          {formError}
        </p>
      ) : null}
    </form>
  );
}
