"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { signOut } from "next-auth/react";

/** Only pages that exist are listed; each feature adds its own entry when it lands. */
export const NAV_ITEMS = [
  { href: "/dashboard", label: "Wallet" },
  { href: "/bg-remove", label: "Background removal" },
  { href: "/face-crop", label: "Face crop" },
  { href: "/matching", label: "Face matching" },
  { href: "/products", label: "Products" },
  { href: "/projects", label: "Projects" },
  { href: "/agencies", label: "Agencies" },
  { href: "/qr", label: "Bulk QR" },
  { href: "/preflight", label: "Preflight" },
  { href: "/ai-fixes", label: "AI fixes" },
  { href: "/api-keys", label: "API keys" },
  { href: "/webhooks", label: "Webhooks" },
  { href: "/account", label: "Account" },
  { href: "/settings", label: "Settings" },
] as const;

export function StudioNav({ email, plan }: { email: string; plan: string }) {
  const pathname = usePathname();
  // Two rows: who you are above, the pages below. The page row scrolls sideways on a
  // narrow screen instead of wrapping labels onto two lines.
  return (
    <header className="border-b border-slate-200 bg-white">
      <div className="mx-auto flex max-w-6xl items-center justify-between gap-4 px-6 pt-3">
        <Link href="/dashboard" className="whitespace-nowrap font-semibold text-brand-700">
          Print Studio
        </Link>
        <div className="flex min-w-0 items-center gap-3 text-sm text-slate-600">
          <span className="truncate">{email}</span>
          <span className="rounded bg-slate-100 px-1.5 py-0.5 text-xs uppercase">{plan}</span>
          <button type="button" onClick={() => signOut({ callbackUrl: "/signin" })} className="whitespace-nowrap text-slate-500 hover:text-slate-900">
            Sign out
          </button>
        </div>
      </div>
      <nav className="mx-auto flex max-w-6xl gap-1 overflow-x-auto px-4 py-2" aria-label="Studio">
        {NAV_ITEMS.map((item) => {
          const active = pathname === item.href || pathname.startsWith(`${item.href}/`);
          return (
            <Link
              key={item.href}
              href={item.href}
              aria-current={active ? "page" : undefined}
              className={`whitespace-nowrap rounded-md px-3 py-1.5 text-sm ${active ? "bg-brand-50 font-medium text-brand-700" : "text-slate-600 hover:bg-slate-100"}`}
            >
              {item.label}
            </Link>
          );
        })}
      </nav>
    </header>
  );
}
