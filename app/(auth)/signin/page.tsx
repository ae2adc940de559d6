import { redirect } from "next/navigation";
import { optionalAccount } from "@/lib/services/sign-in/current-account";
import { SignInForm } from "@/components/auth/sign-in-form";

export const metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string }> }) {
  if (await optionalAccount()) redirect("/dashboard");
  const { callbackUrl } = await searchParams;
  // Only same-site paths: an absolute callback URL would be an open redirect.
  const next = callbackUrl?.startsWith("/") && !callbackUrl.startsWith("//") ? callbackUrl : "/dashboard";
  return <SignInForm callbackUrl={next} />;
}
