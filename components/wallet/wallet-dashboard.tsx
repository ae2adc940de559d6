import { BalanceCard } from "./balance-card";
import { FirstSteps } from "./first-steps";
import { HoldBanner } from "./hold-banner";
import { AutoTopUpBanner } from "./auto-top-up-banner";
import { TransactionsCard } from "./transactions-card";
import { UsageCard } from "./usage-card";

export function WalletDashboard() {
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">Wallet</h1>
        <p className="mt-1 text-sm text-slate-600">Tokens pay for operations in the studio and through the API.</p>
      </div>
      <HoldBanner />
      <AutoTopUpBanner />
      <FirstSteps />
      <div className="grid gap-6 lg:grid-cols-3">
        <BalanceCard className="lg:col-span-1" />
        <UsageCard className="lg:col-span-2" />
      </div>
      <TransactionsCard />
    </div>
  );
}
