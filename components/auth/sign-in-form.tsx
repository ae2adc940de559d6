"use client";

import Link from "next/link";
import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";

/** The sign-in's refusals (lib/services/sign-in/sign-in.ts codes, passed through next-auth as `error`), in words. */
const MESSAGES: Record<string, string> = {
  INVALID_TWO_FACTOR_CODE: "That code does not match. Type the 6 digits the app shows now, or one of your recovery codes.",
  TOO_MANY_LOGIN_ATTEMPTS: "Too many failed attempts for this email. Try again in a few minutes.",
};
/** INVALID_CREDENTIALS, and anything unknown: the rate limit has its own code and message above. */
const WRONG = "The email or password is wrong.";

export function SignInForm({ callbackUrl }: { callbackUrl: string }) {
  const router = useRouter();
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);
  // Set once the password was right and the login has two-factor on: ask for the code.
  const [needsCode, setNeedsCode] = useState(false);

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setPending(true);
    setError(undefined);
    const form = new FormData(e.currentTarget);
    const res = await signIn("credentials", { email: form.get("email"), password: form.get("password"), code: form.get("code") ?? "", redirect: false });
    if (res?.ok) {
      router.push(callbackUrl);
      router.refresh();
      return;
    }
    setPending(false);
    if (res?.error === "TWO_FACTOR_REQUIRED") {
      setNeedsCode(true);
      return;
    }
    setError(MESSAGES[res?.error ?? ""] ?? WRONG);
  }

  return (
    <form onSubmit={onSubmit} className="space-y-4">
      <h1 className="text-lg font-semibold">Sign in</h1>
      <Field id="email" name="email" type="email" label="Email" autoComplete="email" required readOnly={needsCode} />
      <Field id="password" name="password" type="password" label="Password" autoComplete="current-password" required readOnly={needsCode} />
      {needsCode ? (
        <>
          <Field id="code" name="code" label="Authentication code" inputMode="numeric" autoComplete="one-time-code" maxLength={11} required autoFocus />
          <p className="text-sm text-slate-600">Open your authenticator app and type the 6-digit code it shows for Print Studio. Lost your phone? Type one of your recovery codes.</p>
        </>
      ) : (
        <p className="text-right text-sm">
          <Link href="/forgot-password" className="text-brand-600 hover:underline">Forgot password?</Link>
        </p>
      )}
      {error ? <p role="alert" className="text-sm text-red-600">{error}</p> : null}
      <Button type="submit" disabled={pending} className="w-full">
        {pending ? "Signing in…" : needsCode ? "Verify" : "Sign in"}
      </Button>
      <p className="text-center text-sm text-slate-600">
        New here? <Link href="/signup" className="text-brand-600 hover:underline">Create an account</Link>
      </p>
    </form>
  );
}
