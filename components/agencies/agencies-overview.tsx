"use client";

import Link from "next/link";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Field, SelectField } from "@/components/ui/field";
import { QueryError } from "@/components/ui/query-error";
import { useActionKey } from "@/lib/client/idempotency-key";
import { fieldErrors } from "@/lib/client/field-errors";
import { errorMessage } from "./api-errors";
import { AGENCY_TYPES } from "@/lib/services/agencies/values";
import { studioKeys, type Agency } from "./types";
import { studioApi, unwrap } from "@/lib/client/typed-api";

/** /agencies: the schools, clubs and companies this studio photographs. */
export function AgenciesOverview() {
  const agencies = useQuery({ queryKey: studioKeys.agencies, queryFn: async () => unwrap(await studioApi.GET("/v1/services/studio/agencies")) });
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">Agencies</h1>
        <p className="mt-1 max-w-2xl text-sm text-slate-600">
          An agency is a school, club or company you photograph. Each has a roster of subjects (for QR cards and face matching) and jobs (photo shoots) holding the photos.
        </p>
      </div>
      <Card title="New agency">
        <CreateAgencyForm />
      </Card>
      <Card title="Your agencies">
        {agencies.isPending ? (
          <p className="text-sm text-slate-500">Loading…</p>
        ) : agencies.error ? (
          <QueryError title="Could not load agencies." error={agencies.error} onRetry={() => void agencies.refetch()} />
        ) : agencies.data.agencies.length === 0 ? (
          <p className="text-sm text-slate-500">No agencies yet: create your first one above.</p>
        ) : (
          <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
            {agencies.data.agencies.map((a) => (
              <li key={a.id}>
                <Link href={`/agencies/${a.id}`} className="block rounded-md border border-slate-200 p-4 hover:border-brand-500 hover:bg-brand-50">
                  <span className="block font-medium text-slate-900">{a.name}</span>
                  <span className="mt-1 inline-block rounded bg-slate-100 px-1.5 py-0.5 text-xs uppercase text-slate-600">{a.agency_type}</span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}

function CreateAgencyForm() {
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [type, setType] = useState<string>("school");
  const action = useActionKey();
  const create = useMutation({
    mutationFn: () => action.run(async (idempotencyKey) =>
        unwrap(await studioApi.POST("/v1/services/studio/agencies", { headers: { "idempotency-key": idempotencyKey }, body: { name, agency_type: type as Agency["agency_type"] } })),
      ),
    onSuccess: async () => {
      setName("");
      await queryClient.invalidateQueries({ queryKey: studioKeys.agencies });
    },
  });
  const errors = fieldErrors(create.error);
  return (
    <form
      noValidate
      className="grid gap-3 sm:grid-cols-[1fr_12rem_auto] sm:items-start"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate();
      }}
    >
      <Field id="agency-name" label="Name" value={name} onChange={(e) => setName(e.target.value)} placeholder="e.g. Lincoln Elementary" error={errors.name} maxLength={200} />
      <SelectField id="agency-type" label="Type" value={type} onChange={(e) => setType(e.target.value)} options={AGENCY_TYPES} error={errors.agency_type} />
      <Button type="submit" className="sm:mt-6" disabled={create.isPending}>
        {create.isPending ? "Creating…" : "Create agency"}
      </Button>
      {create.error && Object.keys(errors).length === 0 ? <p role="alert" className="text-sm text-red-600 sm:col-span-3">{errorMessage(create.error)}</p> : null}
    </form>
  );
}
