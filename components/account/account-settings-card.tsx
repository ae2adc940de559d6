"use client";

import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Card } from "@/components/ui/card";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { ApiRequestError } from "@/lib/client/api-fetch";
import { studioApi, unwrap } from "@/lib/client/typed-api";
import { accountQueryKey, fetchAccount, type Account } from "./account-types";

type Outcome = { ok: boolean; message: string } | undefined;
type FieldErrors = Record<string, string>;

function fieldErrors(err: unknown): FieldErrors {
  const fields = err instanceof ApiRequestError ? ((err.body.details as { fields?: { field: string; message: string }[] } | undefined)?.fields ?? []) : [];
  return Object.fromEntries(fields.map((f) => [f.field, f.message]));
}

function Note({ outcome }: { outcome: Outcome }) {
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
function useSettingsForm(run: (form: FormData, formEl: HTMLFormElement) => Promise<string>) {
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

function NameForm({ account }: { account: Account }) {
  const queryClient = useQueryClient();
  const router = useRouter();
  const { onSubmit, outcome, errors, pending } = useSettingsForm(async (form) => {
    const updated = unwrap(await studioApi.PATCH("/v1/account", { body: { name: String(form.get("name")) } }));
    queryClient.setQueryData(accountQueryKey, updated);
    router.refresh();
    return "Name saved.";
  });
  return (
    <form onSubmit={onSubmit} className="space-y-3" aria-label="Studio name">
      <Field id="account-name" name="name" label="Studio name (emails greet you by it)" defaultValue={account.name} required maxLength={100} error={errors.name} />
      <Note outcome={outcome} />
      <Button type="submit" variant="secondary" disabled={pending}>{pending ? "Saving…" : "Save name"}</Button>
    </form>
  );
}

function EmailForm({ account }: { account: Account }) {
  const { onSubmit, outcome, errors, pending } = useSettingsForm(async (form, formEl) => {
    const res = unwrap(await studioApi.POST("/v1/account/email", { body: { email: String(form.get("email")), current_password: String(form.get("current_password")) } }));
    formEl.reset();
    return `We sent a link to ${res.pending_email}. The address changes once you follow it; until then you sign in with ${account.email}.`;
  });
  return (
    <form onSubmit={onSubmit} className="space-y-3" aria-label="Email address">
      <Field id="account-new-email" name="email" type="email" label="New email address" autoComplete="email" required error={errors.email} />
      <Field id="account-email-password" name="current_password" type="password" label="Current password" autoComplete="current-password" required error={errors.current_password} />
      <Note outcome={outcome} />
      <Button type="submit" variant="secondary" disabled={pending}>{pending ? "Sending…" : "Change email"}</Button>
    </form>
  );
}

function PasswordForm({ account }: { account: Account }) {
  const { onSubmit, outcome, errors, pending } = useSettingsForm(async (form, formEl) => {
    const next = String(form.get("new_password"));
    unwrap(await studioApi.POST("/v1/account/password", { body: { current_password: String(form.get("current_password")), new_password: next } }));
    // Every session ended, this browser's too: sign it in again with the new password.
    await signIn("credentials", { email: account.email, password: next, redirect: false });
    formEl.reset();
    return "Password changed. Every other session was signed out.";
  });
  return (
    <form onSubmit={onSubmit} className="space-y-3" aria-label="Password">
      <Field id="account-current-password" name="current_password" type="password" label="Current password" autoComplete="current-password" required error={errors.current_password} />
      <Field id="account-new-password" name="new_password" type="password" label="New password (at least 10 characters)" autoComplete="new-password" required error={errors.new_password ?? errors.password} />
      <Note outcome={outcome} />
      <Button type="submit" variant="secondary" disabled={pending}>{pending ? "Saving…" : "Change password"}</Button>
    </form>
  );
}

/** Name, email and password: PATCH /v1/account, POST /v1/account/email, POST /v1/account/password. */
export function AccountSettingsCard() {
  const { data } = useQuery({ queryKey: accountQueryKey, queryFn: fetchAccount });
  if (!data) return null;
  return (
    <Card title="Sign-in and name">
      <div className="grid gap-8 md:grid-cols-3">
        <NameForm account={data} />
        <EmailForm account={data} />
        <PasswordForm account={data} />
      </div>
    </Card>
  );
}
