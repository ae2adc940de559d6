import Link from "next/link";

/** Shown across the studio to an owner or admin whom its two-factor requirement shuts out (lib/services/sign-in/two-factor-policy.ts). */
export function TwoFactorRequiredBanner({ studio }: { studio: string }) {
  return (
    <div role="region" aria-label="Two-factor sign-in required" className="border-b border-red-200 bg-red-50">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-4 gap-y-1 px-6 py-2 text-sm text-red-900">
        <span>{studio} requires two-factor sign-in of its owners and admins. Until you turn yours on, the studio refuses your requests.</span>
        <Link href="/account#two-factor" className="font-medium underline">
          Turn on two-factor sign-in
        </Link>
      </div>
    </div>
  );
}
