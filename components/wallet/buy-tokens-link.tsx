"use client";

import Link from "next/link";
import { useStudioRole } from "@/components/account/use-studio-role";

/**
 * "Buy tokens" for the studio's owner, who alone may pay (POST /v1/billing/checkout);
 * other members are told whom to ask instead of being sent to a page that refuses them.
 */
export function BuyTokensLink({ className = "font-medium underline" }: { className?: string }) {
  const role = useStudioRole();
  if (role === undefined) return null;
  if (role !== "owner") return <span className="text-slate-600">Ask the studio&apos;s owner to buy tokens.</span>;
  return (
    <Link href="/wallet/top-up" className={className}>
      Buy tokens
    </Link>
  );
}
