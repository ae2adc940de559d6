"use client";

import { useState } from "react";
import { fieldErrors } from "@/lib/client/field-errors";

type Outcome = { ok: boolean; message: string } | undefined;
type FieldErrors = Record<string, string>;

export function Note({ outcome }: { outcome: Outcome }) {
  if (!outcome) return null;
  return (
    <p role={outcome.ok ? "status" : "alert"} className={`text-sm ${outcome.ok ? "text-green-700" : "text-red-600"}`}>
      {outcome.message}
    </p>
  );
}

/**
 * One settings form's submit: `run` sends the form and answers the success message;
 * a refusal shows its message and the fields it names (details.fields) under them.
 */
export function useSettingsForm(run: (form: FormData, formEl: HTMLFormElement) => Promise<string>) {
  const [outcome, setOutcome] = useState<Outcome>();
  const [errors, setErrors] = useState<FieldErrors>({});
  const [pending, setPending] = useState(false);
  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const formEl = e.currentTarget;
    setPending(true);
    setErrors({});
    try {
      setOutcome({ ok: true, message: await run(new FormData(formEl), formEl) });
    } catch (err) {
      setErrors(fieldErrors(err));
      setOutcome({ ok: false, message: (err as Error).message });
    } finally {
      setPending(false);
    }
  }
  return { onSubmit, outcome, errors, pending };
}

