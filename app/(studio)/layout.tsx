import { requireAccount } from "@/lib/auth/current-account";
import { Providers } from "@/components/providers";
import { StudioNav } from "@/components/layout/studio-nav";

export default async function StudioLayout({ children }: { children: React.ReactNode }) {
  const account = await requireAccount();
  return (
    <Providers>
      <StudioNav email={account.email} plan={account.plan} />
      <main className="mx-auto max-w-6xl px-6 py-8">{children}</main>
    </Providers>
  );
}
