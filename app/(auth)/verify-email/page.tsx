import { VerifyEmailForm } from "@/components/auth/verify-email-form";

export const metadata = { title: "Confirm your email address" };

export default async function VerifyEmailPage({ searchParams }: { searchParams: Promise<{ token?: string }> }) {
  const { token } = await searchParams;
  return <VerifyEmailForm token={token ?? ""} />;
}
