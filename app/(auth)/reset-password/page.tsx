import { LinkProblem } from "@/components/auth/link-problem";
import { ResetPasswordForm } from "@/components/auth/reset-password-form";
import { getDb } from "@/lib/foundation/db/client";
import { describeEmailLink } from "@/lib/services/sign-in/link-state";

export const metadata = { title: "Choose a new password" };
export const dynamic = "force-dynamic";

export default async function ResetPasswordPage({ searchParams }: { searchParams: Promise<{ token?: string }> }) {
  const { token = "" } = await searchParams;
  // A used or expired link says so at once, instead of a form that would only fail.
  const { state } = await describeEmailLink(await getDb(), token, "password_reset");
  if (state !== "valid") return <LinkProblem kind="reset" state={state} />;
  return <ResetPasswordForm token={token} />;
}
