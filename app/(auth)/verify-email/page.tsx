import { AlreadyConfirmed, LinkProblem } from "@/components/auth/link-problem";
import { VerifyEmailForm } from "@/components/auth/verify-email-form";
import { getDb } from "@/lib/foundation/db/client";
import { describeEmailLink } from "@/lib/services/sign-in/link-state";

export const metadata = { title: "Confirm your email address" };
export const dynamic = "force-dynamic";

export default async function VerifyEmailPage({ searchParams }: { searchParams: Promise<{ token?: string }> }) {
  const { token = "" } = await searchParams;
  // Read only: confirming still waits for the button (mail scanners open links).
  const link = await describeEmailLink(await getDb(), token, "email_verification");
  if (link.alreadyConfirmed) return <AlreadyConfirmed />;
  if (link.state !== "valid") return <LinkProblem kind="verify" state={link.state} />;
  return <VerifyEmailForm token={token} />;
}
