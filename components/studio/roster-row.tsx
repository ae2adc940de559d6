"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { ApiRequestError } from "@/lib/client/api-fetch";
import { errorMessage, fieldErrors } from "./api-errors";
import { ReferencePhotos } from "./reference-photos";
import type { Subject } from "./types";
import { studioApi, unwrap } from "@/lib/client/typed-api";

const input = "w-full rounded border border-slate-300 px-2 py-1 text-sm aria-[invalid=true]:border-red-500";

/** One roster row: shown as text, or edited in place (Enter saves, Escape cancels). */
export function RosterRow({ agencyId, subject }: { agencyId: number; subject: Subject }) {
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  // Reference photos are managed beside the row (ReferencePhotos); reference_photo_url stays an API field.
  const [draft, setDraft] = useState({ student_id: subject.student_id, name: subject.name, class_name: subject.class_name ?? "" });
  const path = { agencyId: String(agencyId), subjectId: subject.id };
  const refresh = () => queryClient.invalidateQueries({ queryKey: ["studio", "agency", agencyId] });
  const save = useMutation({
    mutationFn: () => {
      // Only send what changed.
      const changes: Record<string, string | null> = {};
      if (draft.student_id !== subject.student_id) changes.student_id = draft.student_id;
      if (draft.name !== subject.name) changes.name = draft.name;
      if (draft.class_name !== (subject.class_name ?? "")) changes.class_name = draft.class_name || null;
      return Object.keys(changes).length ? studioApi.PATCH("/v1/services/studio/agencies/{agencyId}/subjects/{subjectId}", { params: { path }, body: changes }).then(unwrap) : Promise.resolve(subject);
    },
    onSuccess: async () => {
      setEditing(false);
      await refresh();
    },
  });
  const remove = useMutation({ mutationFn: async () => unwrap(await studioApi.DELETE("/v1/services/studio/agencies/{agencyId}/subjects/{subjectId}", { params: { path } })), onSuccess: refresh });
  const errors = fieldErrors(save.error);
  // A 409 (duplicate student_id) names its field in details.field rather than details.fields.
  const conflictField = save.error instanceof ApiRequestError ? (save.error.body.details as { field?: string } | undefined)?.field : undefined;
  if (conflictField && !errors[conflictField]) errors[conflictField] = errorMessage(save.error)!;

  if (!editing) {
    return (
      <tr>
        <td className="py-2 pr-3 font-mono text-xs">{subject.student_id}</td>
        <td className="py-2 pr-3">{subject.name}</td>
        <td className="py-2 pr-3">{subject.class_name ?? <span className="text-slate-400">—</span>}</td>
        <td className="py-2 pr-3">
          <ReferencePhotos agencyId={agencyId} subject={subject} />
        </td>
        <td className="py-2 text-right whitespace-nowrap">
          <Button type="button" variant="secondary" className="px-2 py-1" onClick={() => setEditing(true)} aria-label={`Edit ${subject.name}`}>
            Edit
          </Button>{" "}
          <Button type="button" variant="danger" className="px-2 py-1" disabled={remove.isPending} onClick={() => remove.mutate()} aria-label={`Delete ${subject.name}`}>
            Delete
          </Button>
        </td>
      </tr>
    );
  }

  const cell = (key: keyof typeof draft, label: string, mono = false) => (
    <td className="py-2 pr-3 align-top">
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
    </td>
  );
  return (
    <tr className="bg-brand-50/40">
      {cell("student_id", "Student id", true)}
      {cell("name", "Name")}
      {cell("class_name", "Class")}
      <td className="py-2 pr-3 align-top">
        <ReferencePhotos agencyId={agencyId} subject={subject} />
      </td>
      <td className="py-2 text-right align-top whitespace-nowrap">
        <Button type="button" className="px-2 py-1" disabled={save.isPending} onClick={() => save.mutate()}>
          Save
        </Button>{" "}
        <Button type="button" variant="secondary" className="px-2 py-1" onClick={() => setEditing(false)}>
          Cancel
        </Button>
        {save.error && !Object.keys(errors).length ? <p className="mt-1 text-xs text-red-600">{errorMessage(save.error)}</p> : null}
      </td>
    </tr>
  );
}
