"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Card } from "@/components/ui/card";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { QueryError } from "@/components/ui/query-error";
import { studioApi, unwrap, type ApiResponse } from "@/lib/client/typed-api";
import { accountQueryKey } from "./account-types";
import { Note, useSettingsForm } from "./settings-form";

const statusKey = ["account", "two-factor"] as const;
type Setup = ApiResponse<"/v1/account/two-factor", "post">;

/** Shown once, right after they are made: copy or download, then close. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const text = `Print Studio recovery codes (each works once)\n\n${codes.join("\n")}\n`;
  return (
    <div className="space-y-3 rounded-md border border-amber-300 bg-amber-50 p-4">
      <p className="text-sm text-amber-900">
        Save these recovery codes somewhere safe, away from your phone. Each signs you in once if the app is lost. They are shown only now.
      </p>
      <ul className="grid grid-cols-2 gap-1 font-mono text-sm" aria-label="Recovery codes">
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
      <div className="flex gap-2">
        <a className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm" href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`} download="print-studio-recovery-codes.txt">
          Download as text
        </a>
        <Button variant="secondary" onClick={() => void navigator.clipboard?.writeText(text)}>
          Copy
        </Button>
        <Button onClick={onDone}>I have saved them</Button>
      </div>
    </div>
  );
}

function StartForm({ onStarted }: { onStarted: (setup: Setup) => void }) {
  const { onSubmit, outcome, errors, pending } = useSettingsForm(async (form) => {
    onStarted(unwrap(await studioApi.POST("/v1/account/two-factor", { body: { current_password: String(form.get("current_password")) } })));
    return "Scan the code with your app.";
  });
  return (
    <form onSubmit={onSubmit} className="max-w-sm space-y-3" aria-label="Turn on two-factor">
      <Field id="tf-start-password" name="current_password" type="password" label="Current password" autoComplete="current-password" required error={errors.current_password} />
      <Note outcome={outcome?.ok ? undefined : outcome} />
      <Button type="submit" disabled={pending}>{pending ? "Starting…" : "Turn on two-factor sign-in"}</Button>
    </form>
  );
}

function ConfirmForm({ setup, onConfirmed }: { setup: Setup; onConfirmed: (codes: string[]) => void }) {
  const { onSubmit, outcome, errors, pending } = useSettingsForm(async (form) => {
    onConfirmed(unwrap(await studioApi.POST("/v1/account/two-factor/confirm", { body: { code: String(form.get("code")) } })).recovery_codes);
    return "Two-factor sign-in is on.";
  });
  return (
    <div className="flex flex-wrap gap-6">
      {/* eslint-disable-next-line @next/next/no-img-element -- a data URL made by the API, not an optimisable image */}
      <img src={setup.qr_code} alt="QR code to scan with your authenticator app" width={180} height={180} className="rounded border border-slate-200 bg-white" />
      <form onSubmit={onSubmit} className="max-w-sm space-y-3" aria-label="Confirm two-factor">
        <p className="text-sm text-slate-700">
          Scan it with an authenticator app (Google Authenticator, 1Password, Authy…), or type this key: <code className="break-all font-mono text-xs" data-testid="totp-secret">{setup.secret}</code>
        </p>
        <Field id="tf-confirm-code" name="code" label="The 6-digit code the app shows" inputMode="numeric" autoComplete="one-time-code" maxLength={6} required error={errors.code} />
        <Note outcome={outcome?.ok ? undefined : outcome} />
        <Button type="submit" disabled={pending}>{pending ? "Checking…" : "Confirm"}</Button>
      </form>
    </div>
  );
}

function OnForms({ left, requiredBy, onCodes, onOff }: { left: number; requiredBy: string[]; onCodes: (codes: string[]) => void; onOff: () => void }) {
  const off = useSettingsForm(async (form) => {
    unwrap(await studioApi.POST("/v1/account/two-factor/disable", { body: { current_password: String(form.get("current_password")), code: String(form.get("code")) } }));
    onOff();
    return "Two-factor sign-in is off.";
  });
  const renew = useSettingsForm(async (form, formEl) => {
    onCodes(unwrap(await studioApi.POST("/v1/account/two-factor/recovery-codes", { body: { current_password: String(form.get("current_password")) } })).recovery_codes);
    formEl.reset();
    return "New recovery codes made; the old ones no longer work.";
  });
  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-700">
        <span className="font-medium text-emerald-700">On.</span> Signing in needs a code from your app. {left} unused recovery code{left === 1 ? "" : "s"} left.
      </p>
      <div className="grid gap-8 md:grid-cols-2">
        <form onSubmit={renew.onSubmit} className="space-y-3" aria-label="New recovery codes">
          <Field id="tf-renew-password" name="current_password" type="password" label="Current password" autoComplete="current-password" required error={renew.errors.current_password} />
          <Note outcome={renew.outcome} />
          <Button type="submit" variant="secondary" disabled={renew.pending}>New recovery codes</Button>
        </form>
        {requiredBy.length > 0 ? (
          <p className="text-sm text-slate-600">{requiredBy.join(", ")} require{requiredBy.length === 1 ? "s" : ""} two-factor sign-in of owners and admins, so it stays on.</p>
        ) : (
          <form onSubmit={off.onSubmit} className="space-y-3" aria-label="Turn off two-factor">
            <Field id="tf-off-password" name="current_password" type="password" label="Current password" autoComplete="current-password" required error={off.errors.current_password} />
            <Field id="tf-off-code" name="code" label="Code from the app, or a recovery code" autoComplete="one-time-code" required error={off.errors.code} />
            <Note outcome={off.outcome} />
            <Button type="submit" variant="danger" disabled={off.pending}>Turn off</Button>
          </form>
        )}
      </div>
    </div>
  );
}

/** Two-factor sign-in for this person: set up by QR code, recovery codes, turn off (/v1/account/two-factor*). */
export function TwoFactorCard() {
  const queryClient = useQueryClient();
  const status = useQuery({ queryKey: statusKey, queryFn: async () => unwrap(await studioApi.GET("/v1/account/two-factor")) });
  const [setup, setSetup] = useState<Setup>();
  const [codes, setCodes] = useState<string[]>();
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: statusKey });
    void queryClient.invalidateQueries({ queryKey: accountQueryKey });
  };
  return (
    <Card title="Two-factor sign-in">
      <div id="two-factor" className="space-y-4">
        {status.error && !status.data ? <QueryError title="Could not load your two-factor settings." error={status.error} onRetry={() => void status.refetch()} /> : null}
        {codes ? (
          <RecoveryCodes codes={codes} onDone={() => setCodes(undefined)} />
        ) : status.data?.enabled ? (
          <OnForms left={status.data.recovery_codes_left} requiredBy={status.data.required_by.map((s) => s.name)} onCodes={(c) => (setCodes(c), refresh())} onOff={refresh} />
        ) : setup ? (
          <ConfirmForm setup={setup} onConfirmed={(c) => (setSetup(undefined), setCodes(c), refresh())} />
        ) : status.data ? (
          <>
            <p className="text-sm text-slate-700">
              Off. With it on, signing in needs your password and a code from an app on your phone, so a leaked password alone does not open your studios.
              {status.data.required_by.length > 0 ? ` ${status.data.required_by.map((s) => s.name).join(", ")} require${status.data.required_by.length === 1 ? "s" : ""} it.` : ""}
            </p>
            <StartForm onStarted={setSetup} />
          </>
        ) : null}
      </div>
    </Card>
  );
}
