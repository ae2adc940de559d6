"use client";

import Link from "next/link";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { ApiRequestError } from "@/lib/client/api-fetch";
import { studioApi, unwrap } from "@/lib/client/typed-api";

/**
 * The page a confirmation email links to. It confirms on a click, not on load:
 * mail scanners open links to look at them, and that must not use the link up.
 */
export function VerifyEmailForm({ token }: { token: string }) {
  const [state, setState] = useState<{ ok: true; email: string } | { ok: false; message: string }>();
  const [pending, setPending] = useState(false);

  async function confirm() {
    setPending(true);
    try {
      const res = unwrap(await studioApi.POST("/v1/auth/email-verification/confirm", { body: { token } }));
      setState({ ok: true, email: res.account.email });
    } catch (err) {
      setState({ ok: false, message: err instanceof ApiRequestError ? err.message : "The request failed. Try again." });
    } finally {
      setPending(false);
    }
  }

  return (
    <div className="space-y-4">
      <h1 className="text-lg font-semibold">Confirm your email address</h1>
      {state?.ok ? (
        <>
          <p role="status" className="text-sm text-slate-700">
            Thank you: {state.email} is confirmed.
          </p>
          <Link href="/dashboard" className="text-sm text-brand-600 hover:underline">Go to the studio</Link>
        </>
      ) : (
        <>
          {state ? <p role="alert" className="text-sm text-red-600">{state.message}</p> : null}
          <Button onClick={() => void confirm()} disabled={pending || !token} className="w-full">
            {pending ? "Confirming…" : "Confirm this address"}
          </Button>
        </>
      )}
    </div>
  );
}
