"use client";

import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Card } from "@/components/ui/card";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { apiFetch, ApiRequestError } from "@/lib/client/api-fetch";
import { accountQueryKey, type Account } from "./account-types";

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

function NameForm({ account }: { account: Account }) {
  const queryClient = useQueryClient();
  const router = useRouter();
  const [outcome, setOutcome] = useState<Outcome>();
  const [pending, setPending] = useState(false);
  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setPending(true);
    try {
      const name = String(new FormData(e.currentTarget).get("name"));
      const updated = await apiFetch<Account>("/v1/account", { method: "PATCH", json: { name } });
      queryClient.setQueryData(accountQueryKey, updated);
      setOutcome({ ok: true, message: "Name saved." });
      router.refresh();
    } catch (err) {
      setOutcome({ ok: false, message: fieldErrors(err).name ?? (err as Error).message });
    } finally {
      setPending(false);
    }
  }
  return (
    <form onSubmit={onSubmit} className="space-y-3" aria-label="Studio name">
      <Field id="account-name" name="name" label="Studio name (emails greet you by it)" defaultValue={account.name} required maxLength={100} />
      <Note outcome={outcome} />
      <Button type="submit" variant="secondary" disabled={pending}>{pending ? "Saving…" : "Save name"}</Button>
    </form>
  );
}

function EmailForm({ account }: { account: Account }) {
  const [outcome, setOutcome] = useState<Outcome>();
  const [errors, setErrors] = useState<FieldErrors>({});
  const [pending, setPending] = useState(false);
  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const formEl = e.currentTarget;
    setPending(true);
    setErrors({});
    try {
      const form = new FormData(formEl);
      const res = await apiFetch<{ pending_email: string }>("/v1/account/email", { method: "POST", json: { email: String(form.get("email")), current_password: String(form.get("current_password")) } });
      formEl.reset();
      setOutcome({ ok: true, message: `We sent a link to ${res.pending_email}. The address changes once you follow it; until then you sign in with ${account.email}.` });
    } catch (err) {
      setErrors(fieldErrors(err));
      setOutcome({ ok: false, message: (err as Error).message });
    } finally {
      setPending(false);
    }
  }
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
  const [outcome, setOutcome] = useState<Outcome>();
  const [errors, setErrors] = useState<FieldErrors>({});
  const [pending, setPending] = useState(false);
  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const formEl = e.currentTarget;
    setPending(true);
    setErrors({});
    try {
      const form = new FormData(formEl);
      const next = String(form.get("new_password"));
      await apiFetch("/v1/account/password", { method: "POST", json: { current_password: String(form.get("current_password")), new_password: next } });
      // Every session ended, this browser's too: sign it in again with the new password.
      await signIn("credentials", { email: account.email, password: next, redirect: false });
      formEl.reset();
      setOutcome({ ok: true, message: "Password changed. Every other session was signed out." });
    } catch (err) {
      const fields = fieldErrors(err);
      setErrors({ current_password: fields.current_password ?? "", new_password: fields.new_password ?? fields.password ?? "" });
      setOutcome({ ok: false, message: (err as Error).message });
    } finally {
      setPending(false);
    }
  }
  return (
    <form onSubmit={onSubmit} className="space-y-3" aria-label="Password">
      <Field id="account-current-password" name="current_password" type="password" label="Current password" autoComplete="current-password" required error={errors.current_password || undefined} />
      <Field id="account-new-password" name="new_password" type="password" label="New password (at least 10 characters)" autoComplete="new-password" required error={errors.new_password || undefined} />
      <Note outcome={outcome} />
      <Button type="submit" variant="secondary" disabled={pending}>{pending ? "Saving…" : "Change password"}</Button>
    </form>
  );
}

/** Name, email and password: PATCH /v1/account, POST /v1/account/email, POST /v1/account/password. */
export function AccountSettingsCard() {
  const { data } = useQuery({ queryKey: accountQueryKey, queryFn: () => apiFetch<Account>("/v1/account") });
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
