"use client";

import Link from "next/link";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { ApiRequestError } from "@/lib/client/api-fetch";
import { studioApi, unwrap } from "@/lib/client/typed-api";
import { LinkProblem, type LinkProblemState } from "./link-problem";

/** A link that stopped working between the page's load and the press (the page itself checks it on load). */
const LINK_PROBLEMS: Record<string, LinkProblemState> = { TOKEN_INVALID: "invalid", TOKEN_USED: "used", TOKEN_EXPIRED: "expired" };

/** The page a reset email links to: POST /v1/auth/password-reset/confirm with the link's token. */
export function ResetPasswordForm({ token }: { token: string }) {
  const [done, setDone] = useState(false);
  const [error, setError] = useState<string>();
  const [linkProblem, setLinkProblem] = useState<LinkProblemState | undefined>(token ? undefined : "invalid");
  const [pending, setPending] = useState(false);

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setPending(true);
    setError(undefined);
    const password = String(new FormData(e.currentTarget).get("password"));
    try {
      unwrap(await studioApi.POST("/v1/auth/password-reset/confirm", { body: { token, password } }));
      setDone(true);
    } catch (err) {
      if (err instanceof ApiRequestError && err.body.error && LINK_PROBLEMS[err.body.error]) setLinkProblem(LINK_PROBLEMS[err.body.error]);
      else setError(err instanceof Error ? err.message : "The request failed. Try again.");
    } finally {
      setPending(false);
    }
  }

  if (done) {
    return (
      <div className="space-y-4">
        <h1 className="text-lg font-semibold">Password changed</h1>
        <p role="status" className="text-sm text-slate-700">Your new password is set, and every other session was signed out.</p>
        <Link href="/signin" className="text-sm text-brand-600 hover:underline">Sign in</Link>
      </div>
    );
  }
  if (linkProblem) return <LinkProblem kind="reset" state={linkProblem} />;
  return (
    <form onSubmit={onSubmit} className="space-y-4">
      <h1 className="text-lg font-semibold">Choose a new password</h1>
      <Field id="password" name="password" type="password" label="New password (at least 10 characters)" autoComplete="new-password" required error={error} />
      <Button type="submit" disabled={pending} className="w-full">
        {pending ? "Saving…" : "Set the new password"}
      </Button>
    </form>
  );
}
