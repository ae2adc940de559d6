import type { Metadata } from "next";
import { requireAccount } from "@/lib/auth/current-account";
import { TopUpOverview } from "@/components/wallet/top-up-overview";

export const metadata: Metadata = { title: "Buy tokens" };

export default async function TopUpPage() {
  const account = await requireAccount();
  return <TopUpOverview plan={account.plan} />;
}
