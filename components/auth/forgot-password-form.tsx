"use client";

import Link from "next/link";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { ApiRequestError } from "@/lib/client/api-fetch";
import { studioApi, unwrap } from "@/lib/client/typed-api";

/** POST /v1/auth/password-reset: the answer is the same whether or not the address has an account. */
export function ForgotPasswordForm() {
  const [sent, setSent] = useState<string>();
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setPending(true);
    setError(undefined);
    const email = String(new FormData(e.currentTarget).get("email"));
    try {
      const res = unwrap(await studioApi.POST("/v1/auth/password-reset", { body: { email } }));
      setSent(res.message);
    } catch (err) {
      setError(err instanceof ApiRequestError ? err.message : "The request failed. Try again.");
    } finally {
      setPending(false);
    }
  }

  if (sent) {
    return (
      <div className="space-y-4">
        <h1 className="text-lg font-semibold">Check your email</h1>
        <p role="status" className="text-sm text-slate-700">{sent}</p>
        <p className="text-sm text-slate-600">
          <Link href="/signin" className="text-brand-600 hover:underline">Back to sign in</Link>
        </p>
      </div>
    );
  }
  return (
    <form onSubmit={onSubmit} className="space-y-4">
      <h1 className="text-lg font-semibold">Forgot your password?</h1>
      <p className="text-sm text-slate-600">Enter the email address you sign in with. We will send a link to choose a new password.</p>
      <Field id="email" name="email" type="email" label="Email" autoComplete="email" required />
      {error ? <p role="alert" className="text-sm text-red-600">{error}</p> : null}
      <Button type="submit" disabled={pending} className="w-full">
        {pending ? "Sending…" : "Send the link"}
      </Button>
      <p className="text-center text-sm text-slate-600">
        <Link href="/signin" className="text-brand-600 hover:underline">Back to sign in</Link>
      </p>
    </form>
  );
}
