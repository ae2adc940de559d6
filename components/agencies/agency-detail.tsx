"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Field, SelectField } from "@/components/ui/field";
import { QueryError } from "@/components/ui/query-error";
import { useActionKey } from "@/lib/client/idempotency-key";
import { fieldErrors } from "@/lib/client/field-errors";
import { errorMessage } from "./api-errors";
import { RenameDelete } from "./rename-delete";
import { AGENCY_JOB_STATUSES, ICP_TYPES } from "@/lib/services/agencies/values";
import { studioKeys, type AgencyJob } from "./types";
import { DetailHeader } from "@/components/ui/detail-header";
import { studioApi, unwrap } from "@/lib/client/typed-api";

/** /agencies/[id]: the agency, its jobs, and links to its roster and QR cards. */
export function AgencyDetail({ agencyId }: { agencyId: number }) {
  const path = { agencyId: String(agencyId) };
  const agency = useQuery({ queryKey: studioKeys.agency(agencyId), queryFn: async () => unwrap(await studioApi.GET("/v1/services/studio/agencies/{agencyId}", { params: { path } })) });
  const jobs = useQuery({ queryKey: studioKeys.jobs(agencyId), queryFn: async () => unwrap(await studioApi.GET("/v1/services/studio/agencies/{agencyId}/jobs", { params: { path } })) });
  const queryClient = useQueryClient();
  const router = useRouter();
  if (agency.error) return <QueryError title="Could not load the agency." error={agency.error} onRetry={() => void agency.refetch()} />;
  return (
    <div className="space-y-6">
      <DetailHeader back={{ href: "/agencies", label: "Agencies" }} title={agency.data?.name ?? "…"}>
        {agency.data ? (
          <p className="mt-1 text-sm text-slate-600">
            <span className="rounded bg-slate-100 px-1.5 py-0.5 text-xs uppercase">{agency.data.agency_type}</span> · {agency.data.subject_count} subjects · {agency.data.job_count} jobs
          </p>
        ) : null}
        {agency.data ? (
          <div className="mt-3">
            <RenameDelete
              what="agency"
              name={agency.data.name}
              target={{ agencyId }}
              onRenamed={() => Promise.all([queryClient.invalidateQueries({ queryKey: studioKeys.agency(agencyId) }), queryClient.invalidateQueries({ queryKey: studioKeys.agencies })])}
              onDeleted={() => {
                queryClient.removeQueries({ queryKey: studioKeys.agency(agencyId) });
                void queryClient.invalidateQueries({ queryKey: studioKeys.agencies });
                router.push("/agencies");
              }}
            />
          </div>
        ) : null}
      </DetailHeader>
      <div className="grid gap-4 sm:grid-cols-2">
        <Card title="Roster">
          <p className="text-sm text-slate-600">The people you photograph: student ids, names, classes and reference photos. Edit them one by one or import a CSV.</p>
          <Link href={`/agencies/${agencyId}/roster`} className="mt-3 inline-block rounded-md bg-brand-600 px-3 py-2 text-sm font-medium text-white hover:bg-brand-700">
            Open roster
          </Link>
        </Card>
        <Card title="QR cards">
          <p className="text-sm text-slate-600">Print a QR card per subject, so every photo of the shoot can be tied to its subject.</p>
          <Link href={`/qr?agency=${agencyId}`} className="mt-3 inline-block rounded-md border border-slate-300 px-3 py-2 text-sm font-medium text-slate-800 hover:bg-slate-100">
            Make QR cards from this roster
          </Link>
        </Card>
      </div>
      <Card title="Jobs">
        <CreateJobForm agencyId={agencyId} />
        <div className="mt-4">
          {jobs.isPending ? (
            <p className="text-sm text-slate-500">Loading…</p>
          ) : jobs.error ? (
            <QueryError title="Could not load jobs." error={jobs.error} onRetry={() => void jobs.refetch()} />
          ) : jobs.data.jobs.length === 0 ? (
            <p className="text-sm text-slate-500">No jobs yet.</p>
          ) : (
            <table className="w-full text-left text-sm">
              <thead className="text-xs uppercase text-slate-500">
                <tr>
                  <th className="py-2">Job</th>
                  <th>Status</th>
                  <th>Crop preset</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {jobs.data.jobs.map((j) => (
                  <tr key={j.id}>
                    <td className="py-2">
                      <Link href={`/agencies/${agencyId}/jobs/${j.id}`} className="font-medium text-brand-700 hover:underline">
                        {j.name}
                      </Link>
                    </td>
                    <td>{j.status}</td>
                    <td>{j.icp_type}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      </Card>
    </div>
  );
}

function CreateJobForm({ agencyId }: { agencyId: number }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [icp, setIcp] = useState<string>("school");
  const [status, setStatus] = useState<string>("draft");
  const action = useActionKey();
  const create = useMutation({
    mutationFn: () => action.run(async (idempotencyKey) =>
        unwrap(
          await studioApi.POST("/v1/services/studio/agencies/{agencyId}/jobs", {
            params: { path: { agencyId: String(agencyId) } },
            headers: { "idempotency-key": idempotencyKey },
            // The person's choices, sent as they are: the API names a wrong one.
            body: { name, icp_type: icp as AgencyJob["icp_type"], status: status as AgencyJob["status"] },
          }),
        ),
      ),
    onSuccess: async () => {
      setName("");
      await queryClient.invalidateQueries({ queryKey: ["studio", "agency", agencyId] });
    },
  });
  const errors = fieldErrors(create.error);
  return (
    <form
      noValidate
      className="grid gap-3 sm:grid-cols-[1fr_10rem_10rem_auto] sm:items-start"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate();
      }}
    >
      <Field id="job-name" label="New job" value={name} onChange={(e) => setName(e.target.value)} placeholder="e.g. Spring portraits 2026" error={errors.name} maxLength={200} />
      <SelectField id="job-icp" label="Crop preset" value={icp} onChange={(e) => setIcp(e.target.value)} options={ICP_TYPES} error={errors.icp_type} />
      <SelectField id="job-status" label="Status" value={status} onChange={(e) => setStatus(e.target.value)} options={AGENCY_JOB_STATUSES} error={errors.status} />
      <Button type="submit" className="sm:mt-6" disabled={create.isPending}>
        {create.isPending ? "Creating…" : "Create job"}
      </Button>
      {create.error && Object.keys(errors).length === 0 ? <p role="alert" className="text-sm text-red-600 sm:col-span-4">{errorMessage(create.error)}</p> : null}
    </form>
  );
}
