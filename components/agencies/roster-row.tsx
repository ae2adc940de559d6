"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { fieldErrors } from "@/lib/client/field-errors";
import { errorMessage } from "./api-errors";
import { ReferencePhotos } from "./reference-photos";
import type { Subject } from "./types";
import { studioApi, unwrap } from "@/lib/client/typed-api";

const input = "w-full rounded border border-slate-300 px-2 py-1 text-sm aria-[invalid=true]:border-red-500";
/**
 * The fields edited in place; grade and teacher are what a school roster and the PSPA index carry,
 * parent_email where the gallery code is e-mailed.
 */
const FIELDS = ["student_id", "name", "class_name", "grade", "teacher", "parent_email"] as const;
type Draft = Record<(typeof FIELDS)[number], string>;
const draftOf = (s: Subject): Draft => ({ student_id: s.student_id, name: s.name, class_name: s.class_name ?? "", grade: s.grade ?? "", teacher: s.teacher ?? "", parent_email: s.parent_email ?? "" });

/**
 * A cell of the roster: a table cell from md up; below it the row is a card
 * and each cell a line with its label, so nothing scrolls sideways on a phone.
 */
export function RosterCell({ label, className = "", children }: { label?: string; className?: string; children: React.ReactNode }) {
  // The label is a pseudo-element (data-label): shown on the card, no part of the cell's text.
  return (
    <td
      data-label={label}
      className={`flex items-start gap-2 py-0.5 before:w-20 before:shrink-0 before:pt-0.5 before:text-xs before:uppercase before:text-slate-500 before:content-[attr(data-label)] md:table-cell md:py-2 md:pr-3 md:before:content-none ${className}`}
    >
      {children}
    </td>
  );
}
const rowClass = "block border-b border-slate-100 py-3 md:table-row md:py-0";

/** One roster row: shown as text, or edited in place (Enter saves, Escape cancels). */
export function RosterRow({ agencyId, subject }: { agencyId: number; subject: Subject }) {
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  // Reference photos are managed beside the row (ReferencePhotos); reference_photo_url stays an API field.
  const [draft, setDraft] = useState<Draft>(() => draftOf(subject));
  const path = { agencyId: String(agencyId), subjectId: subject.id };
  const refresh = () => queryClient.invalidateQueries({ queryKey: ["studio", "agency", agencyId] });
  const save = useMutation({
    mutationFn: () => {
      // Only send what changed.
      const changes: Record<string, string | null> = {};
      const before = draftOf(subject);
      for (const f of FIELDS) if (draft[f] !== before[f]) changes[f] = draft[f] || (f === "student_id" || f === "name" ? draft[f] : null);
      return Object.keys(changes).length ? studioApi.PATCH("/v1/services/studio/agencies/{agencyId}/subjects/{subjectId}", { params: { path }, body: changes }).then(unwrap) : Promise.resolve(subject);
    },
    onSuccess: async () => {
      setEditing(false);
      await refresh();
    },
  });
  const remove = useMutation({ mutationFn: async () => unwrap(await studioApi.DELETE("/v1/services/studio/agencies/{agencyId}/subjects/{subjectId}", { params: { path } })), onSuccess: refresh });
  // A 409 (duplicate student_id) names its field in details.field rather than details.fields.
  const errors = fieldErrors(save.error, { single: true });

  const startEditing = () => {
    setDraft(draftOf(subject));
    setEditing(true);
  };
  const none = <span className="text-slate-400">—</span>;
  if (!editing) {
    return (
      <tr className={rowClass}>
        <RosterCell label="Id" className="font-mono text-xs">
          {subject.student_id}
        </RosterCell>
        <RosterCell label="Name" className="font-medium md:font-normal">
          {subject.name}
        </RosterCell>
        <RosterCell label="Class">{subject.class_name ?? none}</RosterCell>
        <RosterCell label="Grade">{subject.grade ?? none}</RosterCell>
        <RosterCell label="Teacher">{subject.teacher ?? none}</RosterCell>
        <RosterCell label="Parent" className="break-all">
          {subject.parent_email ?? none}
        </RosterCell>
        <RosterCell label="Photos">
          <ReferencePhotos agencyId={agencyId} subject={subject} />
        </RosterCell>
        <RosterCell className="md:text-right md:whitespace-nowrap">
          <Button type="button" variant="secondary" className="px-2 py-1" onClick={startEditing} aria-label={`Edit ${subject.name}`}>
            Edit
          </Button>{" "}
          <Button type="button" variant="danger" className="px-2 py-1" disabled={remove.isPending} onClick={() => remove.mutate()} aria-label={`Delete ${subject.name}`}>
            Delete
          </Button>
        </RosterCell>
      </tr>
    );
  }

  const cell = (key: keyof Draft, label: string, mono = false) => (
    <RosterCell label={label} className="md:align-top">
      <input
        aria-label={label}
        className={`${input} ${mono ? "font-mono text-xs" : ""}`}
        value={draft[key]}
        aria-invalid={errors[key] ? true : undefined}
        onChange={(e) => setDraft({ ...draft, [key]: e.target.value })}
        onKeyDown={(e) => {
          if (e.key === "Enter") save.mutate();
          if (e.key === "Escape") setEditing(false);
        }}
      />
      {errors[key] ? <p className="mt-1 text-xs text-red-600">{errors[key]}</p> : null}
    </RosterCell>
  );
  return (
    <tr className={`${rowClass} bg-brand-50/40`}>
      {cell("student_id", "Student id", true)}
      {cell("name", "Name")}
      {cell("class_name", "Class")}
      {cell("grade", "Grade")}
      {cell("teacher", "Teacher")}
      {cell("parent_email", "Parent e-mail")}
      <RosterCell label="Photos" className="md:align-top">
        <ReferencePhotos agencyId={agencyId} subject={subject} />
      </RosterCell>
      <RosterCell className="md:align-top md:text-right md:whitespace-nowrap">
        <Button type="button" className="px-2 py-1" disabled={save.isPending} onClick={() => save.mutate()}>
          Save
        </Button>{" "}
        <Button type="button" variant="secondary" className="px-2 py-1" onClick={() => setEditing(false)}>
          Cancel
        </Button>
        {save.error && !Object.keys(errors).length ? <p className="mt-1 text-xs text-red-600">{errorMessage(save.error)}</p> : null}
      </RosterCell>
    </tr>
  );
}
