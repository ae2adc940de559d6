"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { ApiRequestError } from "@/lib/client/api-fetch";
import { useActionKey } from "@/lib/client/idempotency-key";
import { fieldErrors } from "@/lib/client/field-errors";
import { errorMessage } from "./api-errors";
import { studioApi, unwrap } from "@/lib/client/typed-api";

const EMPTY = { student_id: "", name: "", class_name: "", grade: "", teacher: "", parent_email: "" };

export function AddSubjectForm({ agencyId }: { agencyId: number }) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState(EMPTY);
  const action = useActionKey();
  const add = useMutation({
    mutationFn: () => action.run(async (idempotencyKey) =>
        unwrap(
          await studioApi.POST("/v1/services/studio/agencies/{agencyId}/subjects", {
            params: { path: { agencyId: String(agencyId) } },
            headers: { "idempotency-key": idempotencyKey },
            body: { ...draft, class_name: draft.class_name || null, grade: draft.grade || null, teacher: draft.teacher || null, parent_email: draft.parent_email || null },
          }),
        ),
      ),
    onSuccess: async () => {
      setDraft(EMPTY);
      await queryClient.invalidateQueries({ queryKey: ["studio", "agency", agencyId] });
    },
  });
  const errors = fieldErrors(add.error);
  const conflict = add.error instanceof ApiRequestError && add.error.status === 409 ? errorMessage(add.error) : undefined;
  return (
    <form
      noValidate
      className="grid gap-3 sm:grid-cols-2 sm:items-start lg:grid-cols-[8rem_1fr_7rem_5rem_10rem_12rem_auto]"
      onSubmit={(e) => {
        e.preventDefault();
        add.mutate();
      }}
    >
      <Field id="add-student-id" label="Student id" value={draft.student_id} onChange={(e) => setDraft({ ...draft, student_id: e.target.value })} error={errors.student_id ?? conflict} />
      <Field id="add-name" label="Name" value={draft.name} onChange={(e) => setDraft({ ...draft, name: e.target.value })} error={errors.name} />
      <Field id="add-class" label="Class" value={draft.class_name} onChange={(e) => setDraft({ ...draft, class_name: e.target.value })} error={errors.class_name} />
      <Field id="add-grade" label="Grade" value={draft.grade} onChange={(e) => setDraft({ ...draft, grade: e.target.value })} error={errors.grade} />
      <Field id="add-teacher" label="Teacher" value={draft.teacher} onChange={(e) => setDraft({ ...draft, teacher: e.target.value })} error={errors.teacher} />
      <Field id="add-parent-email" label="Parent e-mail" type="email" value={draft.parent_email} onChange={(e) => setDraft({ ...draft, parent_email: e.target.value })} error={errors.parent_email} />
      <Button type="submit" className="lg:mt-6" disabled={add.isPending}>
        Add subject
      </Button>
    </form>
  );
}
