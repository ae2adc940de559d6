"use client";

import Link from "next/link";
import { BuyTokensLink } from "@/components/wallet/buy-tokens-link";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useState } from "react";
import { useHydrated } from "@/lib/client/use-hydrated";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Field, SelectField } from "@/components/ui/field";
import { ListSkeleton } from "@/components/ui/list-states";
import { useWalletBalance } from "@/components/wallet/use-wallet-balance";
import { errorMessage, type LineError } from "@/components/agencies/api-errors";
import { fieldErrors } from "@/lib/client/field-errors";
import { LineErrorsList } from "@/components/agencies/line-errors-list";
import { studioKeys } from "@/components/agencies/types";
import { ApiRequestError } from "@/lib/client/api-fetch";
import { studioApi, unwrap } from "@/lib/client/typed-api";
import { useActionKey } from "@/lib/client/idempotency-key";
import { LayoutPicker } from "./layout-picker";
import { LockIcon } from "./lock-icon";
import { loadAgencyRoster } from "./load-agency-roster";
import { renderFirstPage } from "./pdf-first-page";
import { cardsPerPage, type PageSize } from "@/lib/services/qr/values";
import { MAX_SUBJECTS, rowErrorsFromApi, rowsFromCsv, toSubjects, validateRows, type QrLayout, type RosterRowDraft } from "./roster-rows";
import { RosterTable } from "./roster-table";

const PREVIEW_WIDTH = 420;

/** The editor's draft, kept in this tab's sessionStorage so a reload keeps what was typed. */
const DRAFT_KEY = "print-studio.qr-draft";
type Draft = { rows: RosterRowDraft[]; jobId: string; schoolName: string; layout: QrLayout; pageSize: PageSize; logoUrl: string; agencyId: number | null };
function readDraft(): Partial<Draft> {
  try {
    return JSON.parse(sessionStorage.getItem(DRAFT_KEY) ?? "{}") as Partial<Draft>;
  } catch {
    return {};
  }
}


/** /qr: the Bulk QR roster editor. Everything is checked before the (paid) generate. */
export function QrRosterEditor({ plan, agencyId }: { plan: string; agencyId?: number }) {
  // The draft lives in sessionStorage, which the server render cannot read.
  const hydrated = useHydrated();
  if (!hydrated) return <ListSkeleton label="Loading the editor…" rows={4} />;
  // A reload keeps the draft, unless the page was opened for an agency's roster.
  return <Editor plan={plan} agencyId={agencyId} draft={agencyId ? {} : readDraft()} />;
}

function Editor({ plan, agencyId, draft }: { plan: string; agencyId?: number; draft: Partial<Draft> }) {
  const premium = plan === "premium";
  const queryClient = useQueryClient();
  const balance = useWalletBalance();
  const [rows, setRows] = useState<RosterRowDraft[]>(draft.rows ?? []);
  const [jobId, setJobId] = useState(draft.jobId ?? "");
  const [schoolName, setSchoolName] = useState(draft.schoolName ?? "");
  const [layout, setLayout] = useState<QrLayout>(draft.layout ?? "4up");
  const [pageSize, setPageSize] = useState<PageSize>(draft.pageSize ?? "letter");
  const [logoUrl, setLogoUrl] = useState(draft.logoUrl ?? "");
  const [csv, setCsv] = useState("");
  const [csvErrors, setCsvErrors] = useState<LineError[]>([]);
  const [preview, setPreview] = useState<string | null>(null);
  const [loadedAgencyId, setLoadedAgencyId] = useState<number | null>(draft.agencyId ?? null);
  /** A job of the loaded agency whose parent-gallery codes the cards print ("" for none). */
  const [galleryJobId, setGalleryJobId] = useState("");

  // Every change is kept for a reload (see readDraft).
  useEffect(() => {
    const draft: Draft = { rows, jobId, schoolName, layout, pageSize, logoUrl, agencyId: loadedAgencyId };
    try {
      sessionStorage.setItem(DRAFT_KEY, JSON.stringify(draft));
    } catch {
      // Storage full or disabled: the draft simply does not survive a reload.
    }
  }, [rows, jobId, schoolName, layout, pageSize, logoUrl, loadedAgencyId]);

  const agencies = useQuery({ queryKey: studioKeys.agencies, queryFn: async () => unwrap(await studioApi.GET("/v1/services/studio/agencies")) });
  const loadAgency = useMutation({
    mutationFn: (id: number) => loadAgencyRoster(id),
    onSuccess: (loaded, id) => {
      setRows(loaded);
      if (id !== loadedAgencyId) setGalleryJobId("");
      setLoadedAgencyId(id);
      const agency = agencies.data?.agencies.find((a) => a.id === id);
      if (agency && !schoolName) setSchoolName(agency.name);
    },
  });
  const { mutate: loadRoster } = loadAgency;
  const agencyJobs = useQuery({
    queryKey: studioKeys.jobs(loadedAgencyId ?? 0),
    enabled: loadedAgencyId !== null,
    queryFn: async () => unwrap(await studioApi.GET("/v1/services/studio/agencies/{agencyId}/jobs", { params: { path: { agencyId: String(loadedAgencyId) } } })),
  });
  useEffect(() => {
    if (agencyId) loadRoster(agencyId);
  }, [agencyId, loadRoster]);

  const local = useMemo(() => validateRows(rows), [rows]);
  const body = () => ({
    job_id: jobId.trim(),
    ...(schoolName.trim() ? { school_name: schoolName.trim() } : {}),
    layout,
    page_size: pageSize,
    ...(logoUrl.trim() ? { logo_url: logoUrl.trim() } : {}),
    ...(galleryJobId && loadedAgencyId !== null ? { gallery_job_id: Number(galleryJobId) } : {}),
    subjects: toSubjects(rows),
  });

  const action = useActionKey();
  const generate = useMutation({
    mutationFn: () => action.run(async (idempotencyKey) => unwrap(await studioApi.POST("/v1/services/studio/qr/generate", { params: { header: { "Idempotency-Key": idempotencyKey } }, body: body() }))),
    // Every key under ["wallet"] (balance, transactions, usage) is now stale.
    onSettled: () => Promise.all([queryClient.invalidateQueries({ queryKey: ["wallet"] }), queryClient.invalidateQueries({ queryKey: ["qr", "generations"] })]),
  });
  const previewRun = useMutation({
    mutationFn: async () => {
      // The answer is the PDF itself: read as bytes, drawn by pdf.js.
      // Every card goes (the server draws only the first page): gallery codes are checked against the roster for all of them.
      const pdf = unwrap(await studioApi.POST("/v1/services/studio/qr/preview", { body: body(), parseAs: "arrayBuffer" }));
      return renderFirstPage(pdf, PREVIEW_WIDTH);
    },
    onSuccess: setPreview,
  });

  const apiErrors = fieldErrors(generate.error ?? previewRun.error);
  const rowErrors = { ...rowErrorsFromApi(Object.entries(apiErrors).map(([field, message]) => ({ field, message }))), ...local.rowErrors };
  const cost = rows.length;
  const short = balance.data ? Math.max(0, cost - balance.data.balance) : 0;
  const blocked = rows.length === 0 || local.problems > 0 || local.tooMany || !jobId.trim();
  const actionError = generate.error ?? previewRun.error;
  const premiumError = actionError instanceof ApiRequestError && actionError.body.error === "PREMIUM_REQUIRED";

  function loadCsv(mode: "replace" | "append") {
    const parsed = rowsFromCsv(csv);
    setCsvErrors(parsed.errors);
    if (parsed.errors.length === 0) {
      setRows(mode === "replace" ? parsed.rows : [...rows, ...parsed.rows]);
      setCsv("");
    }
  }

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">Bulk QR cards</h1>
        <p className="mt-1 max-w-3xl text-sm text-slate-600">
          One printable card per subject: name, class, student id and a QR code that names this job and the subject, so every photo taken with the card in view can be matched to
          its subject. 1 token per subject.
        </p>
      </div>

      <Card title="Cards">
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id="qr-job-id" label="Job reference (printed in every QR)" value={jobId} onChange={(e) => setJobId(e.target.value)} placeholder="e.g. SPRING-2026" maxLength={64} error={apiErrors.job_id ?? (jobId || !rows.length ? undefined : "Required.")} />
          <Field id="qr-school" label="School name (optional)" value={schoolName} onChange={(e) => setSchoolName(e.target.value)} maxLength={200} error={apiErrors.school_name} />
        </div>
        {loadedAgencyId !== null && agencyJobs.data?.jobs.length ? (
          <div className="mt-4 max-w-md">
            <SelectField
              id="qr-gallery-job"
              label="Parents' gallery codes (optional)"
              value={galleryJobId}
              onChange={(e) => setGalleryJobId(e.target.value)}
              options={[{ value: "", label: "None" }, ...agencyJobs.data.jobs.map((j) => ({ value: String(j.id), label: `Print the codes of job: ${j.name}` }))]}
              error={apiErrors.gallery_job_id ?? apiErrors.subjects}
            />
            <p className="mt-1 text-xs text-slate-500">Each card then carries the child&apos;s gallery code and a small QR to it; the gallery opens once you publish it.</p>
          </div>
        ) : null}
        <div className="mt-4">
          <LayoutPicker value={layout} onChange={setLayout} premium={premium} />
        </div>
        <div className="mt-4 grid gap-4 sm:grid-cols-2">
          <fieldset>
            <legend className="text-sm font-medium text-slate-700">Paper</legend>
            <div className="mt-2 flex gap-4 text-sm">
              {(["letter", "a4"] as const).map((p) => (
                <label key={p} className="inline-flex items-center gap-2">
                  <input type="radio" name="page-size" checked={pageSize === p} onChange={() => setPageSize(p)} /> {p === "letter" ? "US Letter" : "A4"}
                </label>
              ))}
            </div>
          </fieldset>
          <div title={premium ? undefined : "Premium plan only"}>
            <Field
              id="qr-logo"
              label={premium ? "Logo URL (optional)" : "Logo URL (Premium plan)"}
              value={logoUrl}
              disabled={!premium}
              onChange={(e) => setLogoUrl(e.target.value)}
              placeholder={premium ? "https://… or an upload URL" : "Custom logos need the Premium plan"}
              error={apiErrors.logo_url}
            />
          </div>
        </div>
        {!premium ? (
          <p className="mt-3 text-sm text-slate-500">
            <LockIcon /> 9-up and single-card layouts and custom logos are Premium features. <Link href="/wallet/top-up" className="text-brand-600 hover:underline">See plans</Link>
          </p>
        ) : null}
      </Card>

      <Card title={`Roster (${rows.length} of at most ${MAX_SUBJECTS.toLocaleString()})`}>
        <div className="grid gap-4 lg:grid-cols-[1fr_16rem]">
          <div className="space-y-2">
            <textarea
              aria-label="Paste a roster CSV"
              className="h-28 w-full rounded-md border border-slate-300 p-2 font-mono text-xs"
              placeholder={"student_id,name,class_name\nS1001,Zoë Ørsted-Nguyễn,5B\nS1002,山田 太郎,5A"}
              value={csv}
              onChange={(e) => setCsv(e.target.value)}
            />
            <div className="flex flex-wrap gap-2">
              <Button type="button" disabled={!csv.trim()} onClick={() => loadCsv("replace")}>
                Use this CSV
              </Button>
              <Button type="button" variant="secondary" disabled={!csv.trim()} onClick={() => loadCsv("append")}>
                Append to roster
              </Button>
              <label className="inline-flex cursor-pointer items-center justify-center rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-800 hover:bg-slate-100 focus-within:ring-2 focus-within:ring-brand-500">
                Choose a CSV file…
                <input
                  type="file"
                  accept=".csv,text/csv,text/plain"
                  aria-label="CSV file"
                  className="sr-only"
                  onChange={async (e) => {
                    const file = e.target.files?.[0];
                    if (file) setCsv(await file.text());
                    e.target.value = "";
                  }}
                />
              </label>
            </div>
            {csvErrors.length ? (
              <div role="alert">
                <LineErrorsList errors={csvErrors} testId="qr-csv-errors" className="rounded-md border border-red-200 bg-red-50 py-2 pl-8 pr-3 text-sm text-red-700" />
              </div>
            ) : null}
          </div>
          <div className="space-y-2 text-sm">
            <label htmlFor="qr-agency" className="block font-medium text-slate-700">
              Or load an agency&apos;s roster
            </label>
            <select
              id="qr-agency"
              className="block w-full rounded-md border border-slate-300 bg-white px-3 py-2"
              value={loadedAgencyId ?? ""}
              onChange={(e) => e.target.value && loadAgency.mutate(Number(e.target.value))}
            >
              <option value="">Choose an agency…</option>
              {agencies.data?.agencies.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name}
                </option>
              ))}
            </select>
            {loadedAgencyId ? <AgencyJobPicker agencyId={loadedAgencyId} value={jobId} onPick={setJobId} /> : null}
            {loadAgency.isPending ? <p className="text-slate-500">Loading the roster…</p> : null}
            {loadAgency.error ? <p className="text-red-600">{errorMessage(loadAgency.error)}</p> : null}
          </div>
        </div>
        <div className="mt-4">
          <RosterTable rows={rows} onChange={setRows} errors={rowErrors} />
        </div>
        {local.problems > 0 ? <p className="mt-2 text-sm text-red-600">{local.problems} problem{local.problems > 1 ? "s" : ""} to fix in the roster (marked in red).</p> : null}
        {local.tooMany ? <p className="mt-2 text-sm text-red-600">At most {MAX_SUBJECTS.toLocaleString()} subjects per run: split the roster.</p> : null}
      </Card>

      <div className="grid gap-6 lg:grid-cols-[1fr_auto]">
        <Card title="Generate" className="min-w-0">
          <dl className="grid grid-cols-2 gap-y-1 text-sm">
            <dt className="text-slate-500">Cards</dt>
            <dd data-testid="qr-card-count">{rows.length}</dd>
            <dt className="text-slate-500">Sheets</dt>
            <dd>{Math.ceil(rows.length / cardsPerPage(layout))}</dd>
            <dt className="text-slate-500">Cost</dt>
            <dd className="font-medium" data-testid="qr-cost" data-value={cost}>
              {cost.toLocaleString()} token{cost === 1 ? "" : "s"}
            </dd>
            <dt className="text-slate-500">Balance</dt>
            <dd data-testid="qr-balance" data-value={balance.data?.balance}>
              {balance.data ? `${balance.data.balance.toLocaleString()} tokens` : "…"}
            </dd>
          </dl>
          {short > 0 ? (
            <p className="mt-2 text-sm text-amber-700">
              {short.toLocaleString()} tokens short. <BuyTokensLink className="underline" />
            </p>
          ) : null}
          <div className="mt-4 flex flex-wrap gap-2">
            <Button type="button" variant="secondary" disabled={blocked || previewRun.isPending} onClick={() => previewRun.mutate()}>
              {previewRun.isPending ? "Rendering…" : "Preview first page"}
            </Button>
            <Button type="button" disabled={blocked || short > 0 || generate.isPending} onClick={() => generate.mutate()}>
              {generate.isPending ? "Generating…" : `Generate PDF (${cost.toLocaleString()} tokens)`}
            </Button>
          </div>
          {generate.error || previewRun.error ? (
            <p role="alert" className="mt-3 text-sm text-red-600">
              {premiumError ? <LockIcon /> : null} 
              {errorMessage(generate.error ?? previewRun.error)}
            </p>
          ) : null}
          {generate.data ? (
            <div role="status" className="mt-4 rounded-md border border-green-200 bg-green-50 p-3 text-sm text-green-800">
              <p>
                {generate.data.total_subjects} cards on {generate.data.pages} sheet{generate.data.pages > 1 ? "s" : ""}; {generate.data.tokens_deducted} tokens deducted.
              </p>
              <a href={generate.data.pdf_url} className="mt-2 inline-block rounded-md bg-green-700 px-3 py-2 font-medium text-white hover:bg-green-800" data-testid="qr-download" download>
                Download PDF
              </a>
              <p className="mt-1 text-xs text-green-700">The link works for 24 hours.</p>
            </div>
          ) : null}
        </Card>
        <Card title="Preview" className="min-w-0 lg:w-[470px]">
          {preview ? (
            // A data: URL rendered by pdf.js; next/image has nothing to optimise here.
            // eslint-disable-next-line @next/next/no-img-element
            <img src={preview} alt="Preview of the first sheet" width={PREVIEW_WIDTH} className="h-auto max-w-full border border-slate-200 shadow-sm" data-testid="qr-preview" />
          ) : (
            <p className="text-sm text-slate-500 lg:w-[420px]">Preview the first sheet as it will print (free, stamped PREVIEW).</p>
          )}
        </Card>
      </div>
    </div>
  );
}

/** The agency's jobs from the studio: picking one prints its name as the job reference. */
function AgencyJobPicker({ agencyId, value, onPick }: { agencyId: number; value: string; onPick: (name: string) => void }) {
  const jobs = useQuery({ queryKey: studioKeys.jobs(agencyId), queryFn: async () => unwrap(await studioApi.GET("/v1/services/studio/agencies/{agencyId}/jobs", { params: { path: { agencyId: String(agencyId) } } })) });
  if (!jobs.data?.jobs.length) return null;
  const picked = jobs.data.jobs.find((j) => j.name === value);
  return (
    <div className="space-y-1 pt-2">
      <label htmlFor="qr-agency-job" className="block font-medium text-slate-700">
        Its job
      </label>
      <select id="qr-agency-job" className="block w-full rounded-md border border-slate-300 bg-white px-3 py-2" value={picked?.id ?? ""} onChange={(e) => {
        const job = jobs.data.jobs.find((j) => j.id === Number(e.target.value));
        if (job) onPick(job.name);
      }}>
        <option value="">Choose the job…</option>
        {jobs.data.jobs.map((j) => (
          <option key={j.id} value={j.id}>
            {j.name}
          </option>
        ))}
      </select>
    </div>
  );
}
