import type { Metadata } from "next";
import { requireMember } from "@/lib/services/sign-in/current-account";
import { TopUpOverview } from "@/components/wallet/top-up-overview";
import { RoleNotice } from "@/components/layout/role-notice";

export const metadata: Metadata = { title: "Buy tokens" };

export default async function TopUpPage({ searchParams }: { searchParams: Promise<{ session?: string | string[]; canceled?: string; premium?: string }> }) {
  const { studio: account, role } = await requireMember();
  if (role !== "owner") return <RoleNotice need="owner" role={role} studio={account.name} />;
  const { session, canceled, premium } = await searchParams;
  return <TopUpOverview plan={account.plan} sessionId={typeof session === "string" ? session : undefined} canceled={canceled === "1"} premiumStarted={premium === "started"} />;
}
