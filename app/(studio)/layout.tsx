import { requireAccount } from "@/lib/auth/current-account";
import { Providers } from "@/components/providers";
import { StudioNav } from "@/components/layout/studio-nav";
import { VerifyEmailBanner } from "@/components/account/verify-email-banner";

export default async function StudioLayout({ children }: { children: React.ReactNode }) {
  const account = await requireAccount();
  return (
    <Providers>
      <StudioNav email={account.email} plan={account.plan} />
      {account.emailVerifiedAt ? null : <VerifyEmailBanner email={account.email} />}
      <main className="mx-auto max-w-6xl px-4 py-6 sm:px-6 sm:py-8">{children}</main>
    </Providers>
  );
}
