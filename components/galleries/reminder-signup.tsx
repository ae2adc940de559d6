"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { fieldErrors } from "@/lib/client/field-errors";
import { parentApi } from "@/lib/client/parent-session";

const day = (iso: string) => new Date(iso).toLocaleDateString(undefined, { weekday: "long", day: "numeric", month: "long" });

/**
 * "E-mail me before this gallery closes": favourites carry no address, and the
 * roster may have none, so a parent who is not ready to order can leave one for
 * the single reminder (PUT /v1/parent/reminder-email).
 */
export function ReminderSignup({ token }: { token: string }) {
  const [email, setEmail] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<{ email: string; remind_at: string | null } | null>(null);

  const submit = async () => {
    setBusy(true);
    setError(null);
    const { data, error: failed } = await parentApi(token).PUT("/v1/parent/reminder-email", { body: { email } });
    setBusy(false);
    if (!data) return setError(fieldErrors(failed, { single: true }).email ?? failed?.message ?? "The address could not be saved.");
    setSaved(data);
  };

  return (
    <section className="mt-6 rounded-lg border border-slate-200 bg-white p-4" aria-labelledby="reminder-title">
      <h2 id="reminder-title" className="text-base font-semibold text-slate-900">
        Not ready to order?
      </h2>
      {saved ? (
        <p role="status" className="mt-2 text-sm text-slate-700" data-testid="reminder-saved">
          {saved.remind_at ? `We will e-mail ${saved.email} on ${day(saved.remind_at)}, before the gallery closes.` : `Saved: ${saved.email} will hear from us once before the gallery closes.`}
        </p>
      ) : (
        <form
          className="mt-2 space-y-2"
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <label htmlFor="reminder-email" className="block text-sm text-slate-600">
            Get one e-mail before this gallery closes, with your favourites and the code.
          </label>
          <div className="flex gap-2">
            <input
              id="reminder-email"
              type="email"
              autoComplete="email"
              inputMode="email"
              required
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              placeholder="you@example.com"
              className="min-w-0 flex-1 rounded-md border border-slate-300 px-3 py-2 text-base focus:border-brand-600 focus:outline-none"
            />
            <Button type="submit" disabled={busy || !email.trim()}>
              {busy ? "Saving…" : "Remind me"}
            </Button>
          </div>
          {error ? (
            <p role="alert" className="text-sm text-red-700">
              {error}
            </p>
          ) : null}
        </form>
      )}
    </section>
  );
}
