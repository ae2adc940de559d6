"use client";

import { useQuery } from "@tanstack/react-query";
import { signOut } from "next-auth/react";
import { Card } from "@/components/ui/card";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { studioApi, unwrap } from "@/lib/client/typed-api";
import { accountQueryKey, fetchAccount } from "./account-types";
import { Note, useSettingsForm } from "./settings-form";

/**
 * DELETE /v1/account, for the studio's own login: everything goes (wallet, rosters,
 * photos, keys), so the name is typed back, with the password and the two-factor code.
 */
export function DeleteStudioCard() {
  const { data } = useQuery({ queryKey: accountQueryKey, queryFn: fetchAccount });
  const { onSubmit, outcome, errors, pending } = useSettingsForm(async (form) => {
    const code = String(form.get("code") ?? "").trim();
    unwrap(
      await studioApi.DELETE("/v1/account", {
        body: { confirm_name: String(form.get("confirm_name")), current_password: String(form.get("current_password")), ...(code ? { code } : {}) },
      }),
    );
    await signOut({ callbackUrl: "/signin" });
    return "The studio was deleted.";
  });
  if (!data?.member || data.role !== "owner") return null;
  if (data.member.user_id !== data.id) {
    return (
      <Card title="Delete this studio">
        <p className="text-sm text-slate-600">Only the studio&apos;s own login ({data.email}) can delete it. You can leave it from the team page.</p>
      </Card>
    );
  }
  return (
    <Card title="Delete this studio">
      <form onSubmit={onSubmit} className="max-w-md space-y-3" aria-label="Delete this studio">
        <p className="text-sm text-slate-700">
          This deletes {data.name} and its login for good: the wallet and its tokens, agencies, rosters and their face data, photos and every file, API keys and webhooks. Members keep their own logins. Cancel Premium first if you have it.
        </p>
        <Field id="delete-confirm-name" name="confirm_name" label={`Type the studio's name (${data.name}) to confirm`} required autoComplete="off" error={errors.confirm_name} />
        <Field id="delete-password" name="current_password" type="password" label="Current password" autoComplete="current-password" required error={errors.current_password} />
        {data.member.two_factor_enabled ? <Field id="delete-code" name="code" label="Code from your authenticator app" autoComplete="one-time-code" required error={errors.code} /> : null}
        <Note outcome={outcome} />
        <Button type="submit" variant="danger" disabled={pending}>
          {pending ? "Deleting…" : "Delete the studio and everything in it"}
        </Button>
      </form>
    </Card>
  );
}
