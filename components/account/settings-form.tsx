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
 * One settings form's submit: `run` sends the form and answers the success message.
 * A refusal that names fields of this form (details.fields) is shown once, under
 * those fields (marked invalid and described by it; the first one takes the focus);
 * any other refusal is the form's alert. `rename` maps an API field to the form's
 * input where they differ (the password change's `password` is its `new_password`).
 */
export function useSettingsForm(run: (form: FormData, formEl: HTMLFormElement) => Promise<string>, opts: { rename?: Record<string, string> } = {}) {
  const [outcome, setOutcome] = useState<Outcome>();
  const [errors, setErrors] = useState<FieldErrors>({});
  const [pending, setPending] = useState(false);
  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const formEl = e.currentTarget;
    setPending(true);
    setErrors({});
    setOutcome(undefined);
    try {
      setOutcome({ ok: true, message: await run(new FormData(formEl), formEl) });
    } catch (err) {
      const byInput: FieldErrors = {};
      for (const [field, message] of Object.entries(fieldErrors(err))) byInput[opts.rename?.[field] ?? field] ??= message;
      const inputs = Object.keys(byInput).filter((name) => formEl.elements.namedItem(name) instanceof HTMLElement);
      setErrors(byInput);
      // Said twice (under the field and again above the button) reads as two problems.
      setOutcome(inputs.length && inputs.length === Object.keys(byInput).length ? undefined : { ok: false, message: (err as Error).message });
      if (inputs.length) requestAnimationFrame(() => (formEl.elements.namedItem(inputs[0]!) as HTMLElement | null)?.focus());
    } finally {
      setPending(false);
    }
  }
  return { onSubmit, outcome, errors, pending };
}
