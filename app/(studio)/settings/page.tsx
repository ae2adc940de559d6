import type { Metadata } from "next";
import { requireAccount } from "@/lib/auth/current-account";
import { BasicAuthCard } from "@/components/core/settings/basic-auth-card";
import { UnauthTokenCard } from "@/components/core/settings/unauth-token-card";

export const metadata: Metadata = { title: "Settings" };

export default async function SettingsPage() {
  const account = await requireAccount();
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold text-slate-900">Settings</h1>
      <UnauthTokenCard />
      <BasicAuthCard email={account.email} />
    </div>
  );
}
