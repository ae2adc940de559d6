"use client";

import Link from "next/link";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Card } from "@/components/ui/card";
import { PaginationControls } from "@/components/ui/pagination-controls";
import { QueryError } from "@/components/ui/query-error";
import { AddSubjectForm } from "./add-subject-form";
import { CsvImportPanel } from "./csv-import-panel";
import { RosterRow } from "./roster-row";
import { studioKeys } from "./types";
import { studioApi, unwrap } from "@/lib/client/typed-api";

const COLUMNS = [
  { key: "student_id", label: "Student id" },
  { key: "name", label: "Name" },
  { key: "class_name", label: "Class" },
] as const;

/** /agencies/[id]/roster: a sortable, searchable table with inline edits, single adds and CSV import. */
export function RosterEditor({ agencyId }: { agencyId: number }) {
  const [sort, setSort] = useState("name");
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState("");
  const path = { agencyId: String(agencyId) };
  const agency = useQuery({ queryKey: studioKeys.agency(agencyId), queryFn: async () => unwrap(await studioApi.GET("/v1/services/studio/agencies/{agencyId}", { params: { path } })) });
  const query = { sort: sort as "name", page: String(page), limit: "50", ...(search.trim() ? { q: search.trim() } : {}) };
  const subjects = useQuery({
    queryKey: [...studioKeys.subjects(agencyId), sort, page, search.trim()],
    queryFn: async () => unwrap(await studioApi.GET("/v1/services/studio/agencies/{agencyId}/subjects", { params: { path, query } })),
    placeholderData: keepPreviousData,
  });

  function toggleSort(key: string) {
    setSort((s) => (s === key ? `-${key}` : key));
    setPage(1);
  }

  return (
    <div className="space-y-6">
      <div>
        <Link href={`/agencies/${agencyId}`} className="text-sm text-brand-600 hover:underline">
          ← {agency.data?.name ?? "Agency"}
        </Link>
        <h1 className="mt-1 text-2xl font-semibold text-slate-900">Roster</h1>
        <p className="mt-1 text-sm text-slate-600">
          {subjects.data ? `${subjects.data.meta.total} subjects.` : " "} Click a column to sort; edit a row in place.{" "}
          <Link href={`/qr?agency=${agencyId}`} className="text-brand-600 hover:underline">
            Make QR cards from this roster
          </Link>
        </p>
      </div>
      <Card title="Import a CSV">
        <CsvImportPanel agencyId={agencyId} />
      </Card>
      <Card
        title="Subjects"
        actions={
          <input
            type="search"
            aria-label="Search the roster"
            placeholder="Search name, id or class"
            value={search}
            onChange={(e) => {
              setSearch(e.target.value);
              setPage(1);
            }}
            className="w-full rounded-md border border-slate-300 px-3 py-1.5 text-sm sm:w-64"
          />
        }
      >
        <AddSubjectForm agencyId={agencyId} />
        {subjects.error ? (
          <QueryError title="Could not load the roster." error={subjects.error} onRetry={() => void subjects.refetch()} />
        ) : (
          <div className="mt-4">
            {/* A table from md up; below it each row is a card (RosterCell), nothing scrolls sideways. */}
            <table className="block w-full text-left text-sm md:table" data-testid="roster-table">
              <thead className="hidden border-b border-slate-200 text-xs uppercase text-slate-500 md:table-header-group">
                <tr>
                  {COLUMNS.map((c) => {
                    const active = sort.replace(/^-/, "") === c.key;
                    const direction = active ? (sort.startsWith("-") ? "descending" : "ascending") : "none";
                    return (
                      <th key={c.key} className="py-2 pr-3" aria-sort={direction}>
                        <button type="button" className="inline-flex items-center gap-1 uppercase hover:text-slate-900" onClick={() => toggleSort(c.key)}>
                          {c.label}
                          <span aria-hidden="true">{active ? (sort.startsWith("-") ? "▼" : "▲") : "↕"}</span>
                        </button>
                      </th>
                    );
                  })}
                  <th className="py-2 pr-3">Grade</th>
                  <th className="py-2 pr-3">Teacher</th>
                  <th className="py-2 pr-3">Parent e-mail</th>
                  <th className="py-2 pr-3">Reference photos</th>
                  <th className="py-2 text-right">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody className="block md:table-row-group md:divide-y md:divide-slate-100">
                {subjects.data?.data.map((s) => <RosterRow key={s.id} agencyId={agencyId} subject={s} />)}
              </tbody>
            </table>
            {subjects.isPending ? <p className="py-4 text-sm text-slate-500">Loading…</p> : null}
            {subjects.data && subjects.data.data.length === 0 ? <p className="py-4 text-sm text-slate-500">{search ? "No subject matches." : "The roster is empty: add subjects or import a CSV."}</p> : null}
          </div>
        )}
        {subjects.data ? <PaginationControls className="mt-4" meta={subjects.data.meta} onPageChange={setPage} disabled={subjects.isFetching} label="Roster pages" /> : null}
      </Card>
    </div>
  );
}
