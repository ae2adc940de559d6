"use client";

import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Card } from "@/components/ui/card";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { studioApi, unwrap } from "@/lib/client/typed-api";
import { accountQueryKey, fetchAccount, type Account } from "./account-types";
import { Note, useSettingsForm } from "./settings-form";

function PersonNameForm({ account }: { account: Account }) {
  const queryClient = useQueryClient();
  const { onSubmit, outcome, errors, pending } = useSettingsForm(async (form) => {
    unwrap(await studioApi.PATCH("/v1/account/profile", { body: { name: String(form.get("name")) } }));
    await queryClient.invalidateQueries({ queryKey: accountQueryKey });
    return "Your name is saved.";
  });
  return (
    <form onSubmit={onSubmit} className="space-y-3" aria-label="Your name">
      <Field id="person-name" name="name" label="Your name (as your team sees it)" defaultValue={account.member?.name ?? ""} required maxLength={100} error={errors.name} />
      <Note outcome={outcome} />
      <Button type="submit" variant="secondary" disabled={pending}>{pending ? "Saving…" : "Save your name"}</Button>
    </form>
  );
}

function NameForm({ account }: { account: Account }) {
  const queryClient = useQueryClient();
  const router = useRouter();
  const { onSubmit, outcome, errors, pending } = useSettingsForm(async (form) => {
    const updated = unwrap(await studioApi.PATCH("/v1/account", { body: { name: String(form.get("name")) } }));
    // The answer is the studio alone: keep the caller's role and member beside it.
    queryClient.setQueryData(accountQueryKey, (before: Account | undefined) => (before ? { ...before, ...updated } : before));
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
    return `We sent a link to ${res.pending_email}. The address changes once you follow it; until then you sign in with ${account.member?.email ?? account.email}.`;
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
  const router = useRouter();
  const twoFactor = account.member?.two_factor_enabled ?? false;
  const { onSubmit, outcome, errors, pending } = useSettingsForm(async (form, formEl) => {
    const next = String(form.get("new_password"));
    unwrap(await studioApi.POST("/v1/account/password", { body: { current_password: String(form.get("current_password")), new_password: next } }));
    // Every session ended, this browser's too: sign it in again with the new password
    // (and, with two-factor on, the code typed beside it).
    const signedIn = await signIn("credentials", { email: account.member?.email ?? account.email, password: next, code: String(form.get("code") ?? ""), redirect: false });
    formEl.reset();
    if (!signedIn?.ok) {
      router.push("/signin");
      return "Password changed. Sign in again with the new password.";
    }
    return "Password changed. Every other session was signed out.";
  }, { rename: { password: "new_password" } });
  return (
    <form onSubmit={onSubmit} className="space-y-3" aria-label="Password">
      <Field id="account-current-password" name="current_password" type="password" label="Current password" autoComplete="current-password" required error={errors.current_password} />
      <Field id="account-new-password" name="new_password" type="password" label="New password (at least 10 characters)" autoComplete="new-password" required error={errors.new_password} />
      {twoFactor ? (
        <Field id="account-password-code" name="code" label="Code from your authenticator app (to stay signed in here)" inputMode="numeric" autoComplete="one-time-code" maxLength={11} />
      ) : null}
      <Note outcome={outcome} />
      <Button type="submit" variant="secondary" disabled={pending}>{pending ? "Saving…" : "Change password"}</Button>
    </form>
  );
}

/**
 * Names, email and password: PATCH /v1/account/profile (yours), PATCH /v1/account
 * (the studio's, admins), POST /v1/account/email, POST /v1/account/password.
 */
export function AccountSettingsCard() {
  const { data } = useQuery({ queryKey: accountQueryKey, queryFn: fetchAccount });
  if (!data) return null;
  const admin = data.role === "owner" || data.role === "admin";
  return (
    <Card title="Sign-in and name">
      <div className="grid gap-8 md:grid-cols-2 xl:grid-cols-4">
        {data.member ? <PersonNameForm account={data} /> : null}
        {admin ? <NameForm account={data} /> : null}
        <EmailForm account={data} />
        <PasswordForm account={data} />
      </div>
    </Card>
  );
}
