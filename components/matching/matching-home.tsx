"use client";

import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { PaginationControls } from "@/components/ui/pagination-controls";
import { SelectField } from "@/components/ui/field";
import { QueryError } from "@/components/ui/query-error";
import { studioApi, unwrap } from "@/lib/client/typed-api";
import { useActionKey } from "@/lib/client/idempotency-key";
import { DEFAULT_MATCH_THRESHOLD, MATCH_PRICE_PER_FILE } from "@/lib/services/matching/limits";
import { errorMessage } from "@/components/agencies/api-errors";
import { studioKeys } from "@/components/agencies/types";
import { ReferencesPanel } from "./references-panel";
import { matchingKeys } from "./types";


/** /matching: pick an agency, build its references, match a job's photos, and find earlier match jobs. */
export function MatchingHome() {
  const params = useSearchParams();
  const router = useRouter();
  const agencies = useQuery({ queryKey: studioKeys.agencies, queryFn: async () => unwrap(await studioApi.GET("/v1/services/studio/agencies")) });
  const chosen = Number(params.get("agency")) || agencies.data?.agencies[0]?.id;
  // From a wallet row: the debit's reference is the match job's task; open that match job.
  const task = params.get("task");
  const byTask = useQuery({ queryKey: ["matching", "task", task], enabled: Boolean(task), queryFn: async () => unwrap(await studioApi.GET("/v1/services/studio/jobs/{taskId}", { params: { path: { taskId: task! } } })) as { id: number; type?: string } });
  useEffect(() => {
    if (byTask.data?.type === "match_job") router.replace(`/matching/${byTask.data.id}`);
  }, [byTask.data, router]);
  if (agencies.error) return <QueryError title="Could not load agencies." error={agencies.error} onRetry={() => void agencies.refetch()} />;
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">Face matching</h1>
        <p className="mt-1 max-w-3xl text-sm text-slate-600">
          Sort a shoot&apos;s photos by child: each face is compared with the reference portraits of the agency&apos;s roster. Sure matches are filed at once; close calls wait
          for your review. {MATCH_PRICE_PER_FILE} tokens a photo; photos that cannot be read are refunded.
        </p>
      </div>
      {agencies.data && agencies.data.agencies.length === 0 ? (
        <Card>
          <p className="text-sm text-slate-600">
            No agencies yet. <Link href="/agencies" className="text-brand-700 underline">Create one</Link> with a roster and reference photos first.
          </p>
        </Card>
      ) : null}
      {agencies.data && chosen ? (
        <>
          <SelectField
            id="matching-agency"
            label="Agency"
            value={String(chosen)}
            onChange={(e) => router.replace(`/matching?agency=${e.target.value}`)}
            options={agencies.data.agencies.map((a) => ({ value: String(a.id), label: a.name }))}
          />
          <AgencyMatching agencyId={chosen} />
        </>
      ) : null}
      <MatchJobHistory />
    </div>
  );
}

function AgencyMatching({ agencyId }: { agencyId: number }) {
  const agency = useQuery({ queryKey: studioKeys.agency(agencyId), queryFn: async () => unwrap(await studioApi.GET("/v1/services/studio/agencies/{agencyId}", { params: { path: { agencyId: String(agencyId) } } })) });
  if (agency.error) return <QueryError title="Could not load the agency." error={agency.error} onRetry={() => void agency.refetch()} />;
  if (!agency.data) return <p className="text-sm text-slate-500">Loading…</p>;
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <ReferencesPanel agency={agency.data} />
      <StartMatchJob agencyId={agencyId} enabled={agency.data.face_matching_enabled} />
    </div>
  );
}

function StartMatchJob({ agencyId, enabled }: { agencyId: number; enabled: boolean }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const jobs = useQuery({ queryKey: studioKeys.jobs(agencyId), queryFn: async () => unwrap(await studioApi.GET("/v1/services/studio/agencies/{agencyId}/jobs", { params: { path: { agencyId: String(agencyId) } } })) });
  const [jobId, setJobId] = useState<string>("");
  const [threshold, setThreshold] = useState(DEFAULT_MATCH_THRESHOLD.toFixed(2));
  const action = useActionKey();
  const selected = jobId || String(jobs.data?.jobs[0]?.id ?? "");
  const detail = useQuery({
    queryKey: ["studio", "agency", agencyId, "job", Number(selected), "detail"],
    enabled: Boolean(selected),
    queryFn: async () => unwrap(await studioApi.GET("/v1/services/studio/agencies/{agencyId}/jobs/{jobId}", { params: { path: { agencyId: String(agencyId), jobId: selected } } })),
  });
  const start = useMutation({
    mutationFn: () =>
      action.run(async (idempotencyKey) =>
        unwrap(
          await studioApi.POST("/v1/services/studio/matching/match-job", {
            params: { header: { "Idempotency-Key": idempotencyKey } },
            body: { agency_id: agencyId, job_id: Number(selected), threshold: Number(threshold) },
          }),
        ),
      ),
    onSuccess: async (res) => {
      await queryClient.invalidateQueries({ queryKey: ["wallet"] });
      await queryClient.invalidateQueries({ queryKey: matchingKeys.jobs });
      router.push(`/matching/${res.match_job_id}`);
    },
  });
  // The server's own count (QR cards left out), so the label is what the debit will be.
  const photos = detail.data?.match.photos ?? 0;
  const tokens = detail.data?.match.tokens ?? 0;
  const cards = detail.data?.match.cards_skipped ?? 0;
  return (
    <Card title="2. Match a job's photos">
      {jobs.data?.jobs.length === 0 ? (
        <p className="text-sm text-slate-600">This agency has no jobs yet: create one and upload its photos from the agency page.</p>
      ) : (
        <form
          className="space-y-3"
          onSubmit={(e) => {
            e.preventDefault();
            start.mutate();
          }}
        >
          <SelectField id="match-job" label="Job" value={selected} onChange={(e) => setJobId(e.target.value)} options={(jobs.data?.jobs ?? []).map((j) => ({ value: String(j.id), label: j.name }))} />
          <SelectField
            id="match-threshold"
            label="How sure a match must be"
            value={threshold}
            onChange={(e) => setThreshold(e.target.value)}
            options={[
              { value: "0.95", label: "Very strict (0.95): fewer automatic matches, more to review" },
              { value: "0.90", label: "Strict (0.90): events with many people not on the roster (parents, guests)" },
              { value: DEFAULT_MATCH_THRESHOLD.toFixed(2), label: `Recommended (${DEFAULT_MATCH_THRESHOLD.toFixed(2)})` },
              { value: "0.70", label: "Lenient (0.70): more automatic matches, more risk" },
            ]}
          />
          <Button type="submit" disabled={!enabled || start.isPending || !selected || photos === 0}>
            {start.isPending ? "Starting…" : `Match ${photos} photo${photos === 1 ? "" : "s"} (${tokens} tokens)`}
          </Button>
          <p className="text-xs text-slate-500">
            {cards > 0 ? `${cards} photo${cards === 1 ? " is a QR card" : "s are QR cards"} found by the QR sort: left out and not charged.` : "Photos of QR cards found by a QR sort of the job are left out and not charged."}
          </p>
          {!enabled ? <p className="text-sm text-amber-700">Face matching is switched off for this agency.</p> : null}
          {start.error ? (
            <p role="alert" className="text-sm text-red-600">
              {errorMessage(start.error)}
            </p>
          ) : null}
        </form>
      )}
    </Card>
  );
}

function MatchJobHistory() {
  const [page, setPage] = useState(1);
  const list = useQuery({
    queryKey: [...matchingKeys.jobs, page],
    queryFn: async () => unwrap(await studioApi.GET("/v1/services/studio/matching/jobs", { params: { query: { limit: "10", page: String(page) } } })),
    refetchInterval: (q) => (q.state.data?.data.some((j) => j.status === "queued" || j.status === "running") ? 2000 : false),
  });
  return (
    <Card title="Match jobs">
      {list.error ? <QueryError title="Could not load match jobs." error={list.error} onRetry={() => void list.refetch()} /> : null}
      {list.data?.data.length === 0 ? <p className="text-sm text-slate-500">No match jobs yet.</p> : null}
      {list.data && list.data.data.length > 0 ? (
        <table className="stack-table w-full text-left text-sm" aria-label="Match jobs">
          <thead className="text-xs uppercase text-slate-500">
            <tr>
              <th className="py-2">Match job</th>
              <th>Status</th>
              <th>Photos</th>
              <th>Matched</th>
              <th>To review</th>
              <th>Unmatched</th>
              <th>Tokens</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {list.data.data.map((j) => (
              <tr key={j.id}>
                <td className="py-2">
                  <Link href={`/matching/${j.id}`} className="font-medium text-brand-700 hover:underline">
                    #{j.id} · {new Date(j.created_at).toLocaleString()}
                  </Link>
                </td>
                <td data-label="Status">{j.status === "running" ? `running ${j.processed_files}/${j.total_files}` : j.status}</td>
                <td data-label="Photos">{j.total_files}</td>
                <td data-label="Matched">{j.matched}</td>
                <td data-label="To review" className={j.needs_review ? "font-semibold text-amber-700" : ""}>
                  {j.needs_review}
                </td>
                <td data-label="Unmatched">{j.unmatched}</td>
                <td data-label="Tokens">
                  {j.tokens_deducted - j.tokens_refunded}
                  {j.tokens_refunded ? <span className="text-xs text-slate-500"> ({j.tokens_refunded} refunded)</span> : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {list.data ? <PaginationControls meta={list.data.meta} onPageChange={setPage} className="mt-3" label="Match job pages" /> : null}
    </Card>
  );
}
