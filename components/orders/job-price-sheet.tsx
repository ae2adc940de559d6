"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { Card } from "@/components/ui/card";
import { SelectField } from "@/components/ui/field";
import { QueryError } from "@/components/ui/query-error";
import { studioApi, unwrap } from "@/lib/client/typed-api";

/**
 * Which price sheet a job's galleries sell from. Admins change it (the API refuses anyone else, and says so). Without one, the cart says nothing is for sale.
 */
export function JobPriceSheet({ agencyId, jobId }: { agencyId: number; jobId: number }) {
  const queryClient = useQueryClient();
  const path = { agencyId: String(agencyId), jobId: String(jobId) };
  const queryKey = ["jobs", jobId, "price-sheet"];
  const current = useQuery({ queryKey, queryFn: async () => unwrap(await studioApi.GET("/v1/services/studio/agencies/{agencyId}/jobs/{jobId}/price-sheet", { params: { path } })) });
  const sheets = useQuery({ queryKey: ["price-sheets"], queryFn: async () => unwrap(await studioApi.GET("/v1/price-sheets", { params: { query: { limit: "100" } } })) });
  const assign = useMutation({
    mutationFn: async (id: string | null) => unwrap(await studioApi.PUT("/v1/services/studio/agencies/{agencyId}/jobs/{jobId}/price-sheet", { params: { path }, body: { price_sheet_id: id } })),
    onSuccess: (data) => queryClient.setQueryData(queryKey, data),
  });
  const error = current.error ?? sheets.error;
  return (
    <Card title="Price sheet">
      {error ? (
        <QueryError title="Could not load the price sheets." error={error} onRetry={() => void Promise.all([current.refetch(), sheets.refetch()])} />
      ) : !current.data || !sheets.data ? (
        <div role="status" aria-label="Loading the price sheet" className="h-10 animate-pulse rounded bg-slate-100" />
      ) : sheets.data.data.length === 0 ? (
        <p className="text-sm text-slate-600">
          No price sheet yet: <Link href="/price-sheets" className="text-sky-700 underline">make one</Link>, then choose it here for parents to order from this job&apos;s galleries.
        </p>
      ) : (
        <SelectField
          id={`job-${jobId}-price-sheet`}
          label="Parents order from"
          value={current.data.price_sheet_id ?? ""}
          disabled={assign.isPending}
          onChange={(e) => assign.mutate(e.target.value || null)}
          options={[{ value: "", label: "Nothing for sale" }, ...sheets.data.data.map((s) => ({ value: s.id, label: s.name }))]}
        />
      )}
      {assign.error ? <QueryError title="The price sheet was not changed." error={assign.error} /> : null}
    </Card>
  );
}
