"use client";

import { useState } from "react";
import { ApiRequestError } from "@/lib/client/api-fetch";
import { studioApi, unwrap } from "@/lib/client/typed-api";

/** Shown across the studio while the account's address is unconfirmed; the sign-up tokens wait for the confirmation. */
export function VerifyEmailBanner({ email }: { email: string }) {
  const [note, setNote] = useState<string>();
  const [pending, setPending] = useState(false);

  async function resend() {
    setPending(true);
    try {
      const sent = unwrap(await studioApi.POST("/v1/auth/email-verification", { body: {} }));
      setNote(sent.status === "sent" ? `A new link is on its way to ${email}.` : `Our mail server is not answering just now: we will send the link to ${email} as soon as it does.`);
    } catch (err) {
      setNote(err instanceof ApiRequestError ? err.message : "The link could not be sent. Try again.");
    } finally {
      setPending(false);
    }
  }

  return (
    <div role="region" aria-label="Confirm your email address" className="border-b border-amber-200 bg-amber-50">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-4 gap-y-1 px-6 py-2 text-sm text-amber-900">
        <span>
          Please confirm {email}: follow the link we emailed you. Your sign-up tokens arrive once the address is confirmed.
        </span>
        <button type="button" onClick={() => void resend()} disabled={pending} className="font-medium underline disabled:opacity-50">
          {pending ? "Sending…" : "Send the link again"}
        </button>
        {note ? <span role="status">{note}</span> : null}
      </div>
    </div>
  );
}
