import { redirect } from "next/navigation";
import { optionalAccount } from "@/lib/services/sign-in/current-account";
import { SignInForm } from "@/components/auth/sign-in-form";
import { safeReturnPath } from "@/lib/services/sign-in/return-path";

export const metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string }> }) {
  const { callbackUrl } = await searchParams;
  // Only same-site paths: an absolute, protocol-relative or backslash URL would be an open redirect.
  const next = safeReturnPath(callbackUrl) ?? "/dashboard";
  if (await optionalAccount()) redirect(next);
  return <SignInForm callbackUrl={next} />;
}
