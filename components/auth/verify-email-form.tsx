"use client";

import Link from "next/link";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { ApiRequestError } from "@/lib/client/api-fetch";
import { studioApi, unwrap } from "@/lib/client/typed-api";
import { LinkProblem, type LinkProblemState } from "./link-problem";

const LINK_PROBLEMS: Record<string, LinkProblemState> = { TOKEN_INVALID: "invalid", TOKEN_USED: "used", TOKEN_EXPIRED: "expired" };

/**
 * The page a confirmation email links to. It confirms on a click, not on load:
 * mail scanners open links to look at them, and that must not use the link up.
 */
export function VerifyEmailForm({ token }: { token: string }) {
  const [state, setState] = useState<{ ok: true; email: string } | { ok: false; message: string; link?: LinkProblemState }>();
  const [pending, setPending] = useState(false);

  async function confirm() {
    setPending(true);
    try {
      const res = unwrap(await studioApi.POST("/v1/auth/email-verification/confirm", { body: { token } }));
      setState({ ok: true, email: res.account.email });
    } catch (err) {
      setState({ ok: false, message: err instanceof ApiRequestError ? err.message : "The request failed. Try again.", link: err instanceof ApiRequestError ? LINK_PROBLEMS[err.body.error ?? ""] : undefined });
    } finally {
      setPending(false);
    }
  }

  // Used up between the page's load and the press (another tab): the same page a used link shows.
  if (state && !state.ok && state.link) return <LinkProblem kind="verify" state={state.link} />;
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
