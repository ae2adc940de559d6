"use client";

import Link from "next/link";
import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { ApiRequestError } from "@/lib/client/api-fetch";
import { fieldErrorList } from "@/lib/client/field-errors";
import { studioApi, unwrap, type ApiResponse } from "@/lib/client/typed-api";
import { chooseStudio } from "@/lib/client/choose-studio";

const BAD_LINK = "This invitation link is not valid: it may have been cut short. Open the link from the email again, or ask the studio for a new invitation.";

/** POST /v1/invitations/accept, from the OpenAPI document. */
type Accepted = ApiResponse<"/v1/invitations/accept", "post">;

/** What the page read from the link (lib/services/team/invitations.ts describeInvitation); null when the link names no invitation. */
export type InvitationSummary = { studio: string; role: string; inviter: string | null; email: string; status: "pending" | "accepted" | "revoked" | "expired" } | null;

const article = (role: string) => (role === "admin" || role === "owner" ? "an" : "a");

/** Why a link that named an invitation no longer works, in words. */
const CLOSED: Record<"accepted" | "revoked" | "expired", string> = {
  accepted: "This invitation was already accepted. Sign in to reach the studio.",
  revoked: "This invitation was withdrawn. Ask the studio for a new one.",
  expired: "This invitation has expired. Ask the studio for a new one.",
};

/**
 * The link from an invitation email. One press accepts it for an address that
 * already has a login; a new address is asked for a name and a password first,
 * then signed in on the studio it joined.
 */
export function AcceptInvitationForm({ token, invitation }: { token: string; invitation: InvitationSummary }) {
  const router = useRouter();
  const [needsLogin, setNeedsLogin] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<"name" | "password", string>>>({});
  const [formError, setFormError] = useState<string>();
  const [pending, setPending] = useState(false);
  const [done, setDone] = useState<Accepted>();

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setPending(true);
    setErrors({});
    setFormError(undefined);
    const form = new FormData(e.currentTarget);
    const body = needsLogin ? { token, name: String(form.get("name") ?? ""), password: String(form.get("password") ?? "") } : { token };
    try {
      const accepted = unwrap(await studioApi.POST("/v1/invitations/accept", { body }));
      // After joining, the studio opens on the one joined.
      chooseStudio(accepted.studio.id);
      if (accepted.login_created && "password" in body) {
        const res = await signIn("credentials", { email: accepted.email, password: body.password, redirect: false });
        if (res?.ok) {
          router.push("/dashboard");
          router.refresh();
          return;
        }
      }
      setDone(accepted);
    } catch (err) {
      if (err instanceof ApiRequestError) {
        const fields = fieldErrorList(err);
        const mine = fields.filter((f) => f.field === "name" || f.field === "password");
        // A link cut short (or padded) fails the token's own format check: say what to do, not how it was checked.
        const malformed = err.body.error === "VALIDATION_ERROR" && fields.some((f) => f.field === "token");
        if (malformed) setFormError(BAD_LINK);
        else if (!needsLogin && mine.length > 0) setNeedsLogin(true);
        else if (mine.length > 0) setErrors(Object.fromEntries(mine.map((f) => [f.field, f.message])));
        else setFormError(err.message);
      } else {
        setFormError((err as Error).message);
      }
    } finally {
      setPending(false);
    }
  }

  if (!token || !invitation) return <p role="alert">{BAD_LINK}</p>;
  if (done) {
    return (
      <div role="status" className="space-y-3">
        <h1 className="text-lg font-semibold">You joined {done.studio.name}</h1>
        <p className="text-sm text-slate-600">
          As {article(done.role)} {done.role}, with your login {done.email}.
        </p>
        <Link href="/dashboard" className="inline-block text-brand-700 underline">
          Open the studio
        </Link>
      </div>
    );
  }
  if (invitation.status !== "pending") {
    return (
      <div className="space-y-3">
        <h1 className="text-lg font-semibold">Join {invitation.studio}</h1>
        <p role="alert" className="text-sm text-slate-700">
          {CLOSED[invitation.status]}
        </p>
        {invitation.status === "accepted" ? (
          <Link href="/signin" className="inline-block text-brand-700 underline">
            Sign in
          </Link>
        ) : null}
      </div>
    );
  }
  return (
    <form onSubmit={onSubmit} className="space-y-4" noValidate>
      <h1 className="text-lg font-semibold">Join {invitation.studio} on Print Studio</h1>
      <p data-testid="invitation-summary" className="text-sm text-slate-700">
        {invitation.inviter ?? "The studio"} invited {invitation.email} to join <strong>{invitation.studio}</strong> as {article(invitation.role)} <strong>{invitation.role}</strong>.
      </p>
      {needsLogin ? (
        <>
          <p className="text-sm text-slate-600">This address has no login yet: choose your name and a password.</p>
          <Field id="name" name="name" label="Your name" autoComplete="name" required error={errors.name} />
          <Field id="password" name="password" type="password" label="Choose a password (10 characters or more)" autoComplete="new-password" required error={errors.password} />
        </>
      ) : (
        <p className="text-sm text-slate-600">You will work in the studio with your own login.</p>
      )}
      {formError ? (
        <p role="alert" className="text-sm text-red-600">
          {formError}
        </p>
      ) : null}
      <Button type="submit" disabled={pending} className="w-full">
        {pending ? "Joining…" : needsLogin ? "Create my login and join" : "Accept the invitation"}
      </Button>
    </form>
  );
}
