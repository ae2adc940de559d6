"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { ApiRequestError } from "@/lib/client/api-fetch";
import { studioApi, unwrap } from "@/lib/client/typed-api";
import { useActionKey } from "@/lib/client/idempotency-key";
import { errorMessage, lineErrors } from "./api-errors";
import { LineErrorsList } from "./line-errors-list";
import { countNoun } from "@/lib/foundation/count-noun";
import { COLUMN_SYNONYMS, type HeaderColumn } from "@/lib/services/agencies/roster-columns";

const EXAMPLE = "Student ID,First Name,Last Name,Grade,Teacher\nS1001,Zoë,Ørsted-Nguyễn,5,Ms. Jameson\nS1002,太郎,山田,5,Mr. Stephens";

/** Paste or pick a CSV; the server checks every row and imports all or nothing, errors by line. */
export function CsvImportPanel({ agencyId }: { agencyId: number }) {
  const queryClient = useQueryClient();
  const [csv, setCsv] = useState("");
  const [update, setUpdate] = useState(false);
  const action = useActionKey();
  const upload = useMutation({
    mutationFn: (text: string) =>
      action.run(async (idempotencyKey) =>
        unwrap(
          await studioApi.POST("/v1/services/studio/agencies/{agencyId}/subjects/import", {
            params: { path: { agencyId: String(agencyId) }, query: { on_conflict: update ? "update" : "error" }, header: { "Idempotency-Key": idempotencyKey } },
            headers: { "content-type": "text/csv" },
            body: text,
            // The CSV goes as it is, not as JSON.
            bodySerializer: (csv) => csv,
          }),
        ),
      ),
    onSuccess: async () => {
      setCsv("");
      await queryClient.invalidateQueries({ queryKey: ["studio", "agency", agencyId] });
    },
  });
  const errors = lineErrors(upload.error);
  return (
    <div className="space-y-3">
      <p className="text-sm text-slate-600">
        A header row, then one subject per row; comma, semicolon or tab separated, UTF-8. A school&apos;s own export usually works as it is: <code className="font-mono text-xs">Student ID, First Name, Last Name, Grade, Teacher</code>.
      </p>
      <details className="text-sm text-slate-600" data-testid="csv-columns">
        <summary className="cursor-pointer">Columns read</summary>
        <ul className="mt-1 list-disc space-y-0.5 pl-5">
          {(Object.entries(COLUMN_SYNONYMS) as Array<[HeaderColumn, readonly string[]]>).map(([column, spellings]) => (
            <li key={column}>
              <code className="font-mono text-xs">{column}</code>
              {column === "student_id" ? " (required)" : column === "name" ? " (required, or First Name and Last Name)" : ""}
              {spellings.length ? <span className="text-slate-500">: also {spellings.join(", ")}</span> : null}
            </li>
          ))}
        </ul>
        <p className="mt-1 text-xs text-slate-500">Case, spaces, underscores and hyphens do not matter.</p>
      </details>
      <textarea
        aria-label="Roster CSV"
        className="h-32 w-full rounded-md border border-slate-300 p-2 font-mono text-xs"
        placeholder={EXAMPLE}
        value={csv}
        onChange={(e) => setCsv(e.target.value)}
      />
      <div className="flex flex-wrap items-center gap-3">
        <Button type="button" disabled={!csv.trim() || upload.isPending} onClick={() => upload.mutate(csv)}>
          {upload.isPending ? "Importing…" : "Import CSV"}
        </Button>
        <label className="inline-flex items-center gap-2 text-sm text-slate-700">
          <input type="file" accept=".csv,text/csv,text/plain" className="text-sm" aria-label="CSV file" onChange={async (e) => {
            const file = e.target.files?.[0];
            if (file) setCsv(await file.text());
            e.target.value = "";
          }} />
        </label>
        <label className="inline-flex items-center gap-2 text-sm text-slate-700">
          <input type="checkbox" checked={update} onChange={(e) => setUpdate(e.target.checked)} /> Update subjects already on the roster
        </label>
      </div>
      {upload.data ? (
        <p role="status" className="text-sm text-green-700">
          Imported {countNoun(upload.data.total, "rows")}: {upload.data.created} new, {upload.data.updated} updated.
        </p>
      ) : null}
      {upload.error ? (
        <div role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-700">
          <p className="font-medium">{errors.length ? `Nothing was imported: ${errorCount(upload.error) ?? errors.length} problems.` : errorMessage(upload.error)}</p>
          {errors.length ? (
            <LineErrorsList errors={errors} testId="csv-errors" className="mt-2 max-h-48 space-y-0.5 overflow-y-auto pl-5" />
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

function errorCount(err: unknown): number | undefined {
  return err instanceof ApiRequestError ? (err.body.details as { error_count?: number } | undefined)?.error_count : undefined;
}
