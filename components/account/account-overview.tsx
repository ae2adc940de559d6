import { AccountDetailsCard } from "./account-details-card";
import { AccountSettingsCard } from "./account-settings-card";
import { ApiUsageCard } from "./api-usage-card";
import { SessionsCard } from "./sessions-card";
import { TwoFactorCard } from "./two-factor-card";
import { DeleteStudioCard } from "./delete-studio-card";

export function AccountOverview() {
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold text-slate-900">Account</h1>
      <AccountDetailsCard />
      <AccountSettingsCard />
      <TwoFactorCard />
      <SessionsCard />
      <ApiUsageCard />
      <DeleteStudioCard />
    </div>
  );
}
