"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { ApiRequestError } from "@/lib/client/api-fetch";
import { studioApi, unwrap } from "@/lib/client/typed-api";
import { fieldErrors } from "@/lib/client/field-errors";
import { errorMessage } from "./api-errors";

/**
 * Rename and delete for an agency or a job. Delete asks first; when the API
 * refuses because the thing still holds subjects or photos (409 *_NOT_EMPTY), its
 * reason is shown and a second, explicit choice deletes everything (?cascade=true).
 */
export function RenameDelete({ what, name, target, onRenamed, onDeleted }: { what: "agency" | "job"; name: string; target: { agencyId: number; jobId?: number }; onRenamed: () => Promise<unknown> | void; onDeleted: () => void }) {
  const agencyId = String(target.agencyId);
  const jobId = target.jobId === undefined ? undefined : String(target.jobId);
  const [mode, setMode] = useState<"idle" | "rename" | "confirm">("idle");
  const [draft, setDraft] = useState(name);
  const rename = useMutation({
    mutationFn: async () =>
      jobId === undefined
        ? unwrap(await studioApi.PATCH("/v1/services/studio/agencies/{agencyId}", { params: { path: { agencyId } }, body: { name: draft } }))
        : unwrap(await studioApi.PATCH("/v1/services/studio/agencies/{agencyId}/jobs/{jobId}", { params: { path: { agencyId, jobId } }, body: { name: draft } })),
    onSuccess: async () => {
      await onRenamed();
      setMode("idle");
    },
  });
  const remove = useMutation({
    mutationFn: async (cascade: boolean) => {
      const query = cascade ? { cascade: "true" as const } : {};
      return jobId === undefined
        ? unwrap(await studioApi.DELETE("/v1/services/studio/agencies/{agencyId}", { params: { path: { agencyId }, query } }))
        : unwrap(await studioApi.DELETE("/v1/services/studio/agencies/{agencyId}/jobs/{jobId}", { params: { path: { agencyId, jobId }, query } }));
    },
    onSuccess: onDeleted,
  });
  const refusal = remove.error instanceof ApiRequestError && remove.error.status === 409 ? remove.error.message : null;

  if (mode === "rename") {
    return (
      <form
        noValidate
        className="flex flex-wrap items-start gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          rename.mutate();
        }}
      >
        <Field id={`rename-${what}`} label={`New name of the ${what}`} value={draft} onChange={(e) => setDraft(e.target.value)} error={fieldErrors(rename.error).name ?? (rename.error && !fieldErrors(rename.error).name ? errorMessage(rename.error) : undefined)} maxLength={200} />
        <div className="flex gap-2 sm:mt-6">
          <Button type="submit" disabled={rename.isPending}>
            {rename.isPending ? "Saving…" : "Save name"}
          </Button>
          <Button type="button" variant="secondary" onClick={() => setMode("idle")}>
            Cancel
          </Button>
        </div>
      </form>
    );
  }
  if (mode === "confirm") {
    return (
      <div role="alertdialog" aria-label={`Delete the ${what}`} className="space-y-2 rounded-md border border-red-200 bg-red-50 p-3 text-sm">
        {refusal ? (
          <>
            <p className="text-red-800" data-testid="delete-refusal">
              {refusal.replace(/ Delete them first, or send DELETE \?cascade=true.*$/, "")}
            </p>
            <p className="text-red-800">Delete the {what} with everything in it? This cannot be undone.</p>
            <div className="flex gap-2">
              <Button variant="danger" onClick={() => remove.mutate(true)} disabled={remove.isPending}>
                {remove.isPending ? "Deleting…" : "Delete everything"}
              </Button>
              <Button variant="secondary" onClick={() => { remove.reset(); setMode("idle"); }}>
                Keep it
              </Button>
            </div>
          </>
        ) : (
          <>
            <p className="text-red-800">
              Delete the {what} “{name}”? This cannot be undone.
            </p>
            <div className="flex gap-2">
              <Button variant="danger" onClick={() => remove.mutate(false)} disabled={remove.isPending}>
                {remove.isPending ? "Deleting…" : `Delete ${what}`}
              </Button>
              <Button variant="secondary" onClick={() => setMode("idle")}>
                Cancel
              </Button>
            </div>
            {remove.error ? <p role="alert" className="text-red-700">{errorMessage(remove.error)}</p> : null}
          </>
        )}
      </div>
    );
  }
  return (
    <div className="flex gap-2">
      <Button variant="secondary" onClick={() => { setDraft(name); rename.reset(); setMode("rename"); }}>
        Rename
      </Button>
      <Button variant="danger" onClick={() => { remove.reset(); setMode("confirm"); }}>
        Delete
      </Button>
    </div>
  );
}
