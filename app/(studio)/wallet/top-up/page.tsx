import type { Metadata } from "next";
import { requireAccount } from "@/lib/auth/current-account";
import { TopUpOverview } from "@/components/wallet/top-up-overview";

export const metadata: Metadata = { title: "Buy tokens" };

export default async function TopUpPage({ searchParams }: { searchParams: Promise<{ session?: string | string[]; canceled?: string; premium?: string }> }) {
  const account = await requireAccount();
  const { session, canceled, premium } = await searchParams;
  return <TopUpOverview plan={account.plan} sessionId={typeof session === "string" ? session : undefined} canceled={canceled === "1"} premiumStarted={premium === "started"} />;
}
