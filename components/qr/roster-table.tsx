"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { newRow, type RosterRowDraft, type RowErrors } from "./roster-rows";

const PAGE = 50;
const cellInput = "w-full rounded border border-slate-300 px-2 py-1 text-sm aria-[invalid=true]:border-red-500 aria-[invalid=true]:bg-red-50";

/** The editable roster, 50 rows a page (a 2,000-row roster stays responsive). */
export function RosterTable({ rows, onChange, errors }: { rows: RosterRowDraft[]; onChange: (rows: RosterRowDraft[]) => void; errors: RowErrors }) {
  const [page, setPage] = useState(0);
  const pages = Math.max(1, Math.ceil(rows.length / PAGE));
  const current = Math.min(page, pages - 1);
  const start = current * PAGE;
  const update = (index: number, change: Partial<RosterRowDraft>) => onChange(rows.map((r, i) => (i === index ? { ...r, ...change } : r)));

  return (
    <div>
      <div>
        {/* Below 640 px each row is a card (globals.css stack-table): three inputs under each other, nothing scrolls sideways. */}
        <table className="stack-table w-full text-left text-sm" data-testid="qr-roster">
          <thead className="text-xs uppercase text-slate-500">
            <tr>
              <th className="w-12 py-2">#</th>
              <th className="py-2 pr-2">Student id</th>
              <th className="py-2 pr-2">Name</th>
              <th className="py-2 pr-2">Class</th>
              <th>
                <span className="sr-only">Remove</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.slice(start, start + PAGE).map((row, offset) => {
              const i = start + offset;
              const e = errors[i] ?? {};
              const cell = (field: "student_id" | "name" | "class_name", label: string) => (
                <td className="py-1 pr-2 align-top" data-label={label}>
                  <input aria-label={`${label}, row ${i + 1}`} className={cellInput} value={row[field]} aria-invalid={e[field] ? true : undefined} onChange={(ev) => update(i, { [field]: ev.target.value })} />
                  {e[field] ? <p className="mt-0.5 text-xs text-red-600">{e[field]}</p> : null}
                </td>
              );
              return (
                <tr key={row.key} className="relative">
                  <td className="py-1 align-top text-xs text-slate-400" data-label="Row">
                    {i + 1}
                  </td>
                  {cell("student_id", "Student id")}
                  {cell("name", "Name")}
                  {cell("class_name", "Class")}
                  <td className="py-1 text-right align-top max-sm:absolute! max-sm:top-1 max-sm:right-0 max-sm:w-auto!">
                    <button type="button" className="px-2 text-slate-400 hover:text-red-600" aria-label={`Remove row ${i + 1}`} onClick={() => onChange(rows.filter((_, j) => j !== i))}>
                      ×
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <div className="mt-3 flex flex-wrap items-center justify-between gap-3 text-sm">
        <Button
          type="button"
          variant="secondary"
          onClick={() => {
            onChange([...rows, newRow()]);
            setPage(Math.floor(rows.length / PAGE));
          }}
        >
          Add row
        </Button>
        {pages > 1 ? (
          <div className="flex items-center gap-2">
            <Button type="button" variant="secondary" disabled={current === 0} onClick={() => setPage(current - 1)}>
              Previous
            </Button>
            <span className="text-slate-600">
              Rows {start + 1}–{Math.min(rows.length, start + PAGE)} of {rows.length}
            </span>
            <Button type="button" variant="secondary" disabled={current >= pages - 1} onClick={() => setPage(current + 1)}>
              Next
            </Button>
          </div>
        ) : null}
      </div>
    </div>
  );
}
