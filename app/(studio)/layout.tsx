import { requireMember } from "@/lib/services/sign-in/current-account";
import { Providers } from "@/components/providers";
import { StudioNav } from "@/components/layout/studio-nav";
import { VerifyEmailBanner } from "@/components/account/verify-email-banner";
import { TwoFactorRequiredBanner } from "@/components/account/two-factor-required-banner";
import { roleAtLeast } from "@/lib/domain/identity/roles";

export default async function StudioLayout({ children }: { children: React.ReactNode }) {
  const { user, studio, role } = await requireMember();
  return (
    <Providers>
      <StudioNav email={user.email} plan={studio.plan} role={role} studio={{ id: studio.id, name: studio.name }} />
      {user.emailVerifiedAt ? null : <VerifyEmailBanner email={user.email} />}
      {studio.requireTwoFactor && roleAtLeast(role, "admin") && !user.twoFactorEnabledAt ? <TwoFactorRequiredBanner studio={studio.name} /> : null}
      <main className="mx-auto max-w-6xl px-4 py-6 sm:px-6 sm:py-8">{children}</main>
    </Providers>
  );
}
