"use client";

import Link from "next/link";
import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { ApiRequestError } from "@/lib/client/api-fetch";
import { fieldErrorList } from "@/lib/client/field-errors";
import { studioApi, unwrap } from "@/lib/client/typed-api";

type FieldErrors = Partial<Record<"email" | "password" | "name", string>>;

export function SignUpForm({ bonusTokens = 0 }: { bonusTokens?: number }) {
  const router = useRouter();
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string>();
  const [pending, setPending] = useState(false);

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setPending(true);
    setErrors({});
    setFormError(undefined);
    const form = new FormData(e.currentTarget);
    const body = { name: String(form.get("name")), email: String(form.get("email")), password: String(form.get("password")) };
    try {
      unwrap(await studioApi.POST("/v1/auth/register", { body }));
      const res = await signIn("credentials", { email: body.email, password: body.password, redirect: false });
      if (!res?.ok) throw new Error("Signed up, but signing in failed. Try signing in.");
      router.push("/dashboard");
      router.refresh();
    } catch (err) {
      setPending(false);
      if (err instanceof ApiRequestError) {
        const fields = fieldErrorList(err);
        const next: FieldErrors = {};
        for (const f of fields) if (f.field === "email" || f.field === "password" || f.field === "name") next[f.field] = f.message;
        if (err.body.error === "EMAIL_TAKEN") next.email = "An account with this email already exists.";
        setErrors(next);
        if (Object.keys(next).length === 0) setFormError(err.message);
      } else {
        setFormError((err as Error).message);
      }
    }
  }

  return (
    <form onSubmit={onSubmit} className="space-y-4" noValidate>
      <h1 className="text-lg font-semibold">Create an account</h1>
      <Field id="name" name="name" label="Name" autoComplete="name" required error={errors.name} />
      <Field id="email" name="email" type="email" label="Email" autoComplete="email" required error={errors.email} />
      <Field id="password" name="password" type="password" label="Password (10 characters or more)" autoComplete="new-password" required error={errors.password} />
      {bonusTokens > 0 ? (
        <p className="text-sm text-slate-600" data-testid="signup-bonus">
          {bonusTokens.toLocaleString("en-US")} free tokens arrive when you confirm your email address.
        </p>
      ) : null}
      {formError ? <p role="alert" className="text-sm text-red-600">{formError}</p> : null}
      <Button type="submit" disabled={pending} className="w-full">
        {pending ? "Creating…" : "Create account"}
      </Button>
      <p className="text-center text-sm text-slate-600">
        Have an account? <Link href="/signin" className="text-brand-600 hover:underline">Sign in</Link>
      </p>
    </form>
  );
}
