import { Card } from "@/components/ui/card";
import { BalanceCard } from "./balance-card";
import { PlansComparison } from "./plans-comparison";
import { TokenCostsTable } from "./token-costs-table";
import { TokenPacks } from "./token-packs";
import { CheckoutReturn } from "./checkout-return";
import { PremiumActions } from "./premium-actions";
import { AutoTopUpCard } from "./auto-top-up-card";


/** /wallet/top-up: token packs by card, the payment just made, how tokens work, prices and plans. */
export function TopUpOverview({ plan, sessionId, canceled, premiumStarted }: { plan?: string; sessionId?: string; canceled?: boolean; premiumStarted?: boolean }) {
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">Buy tokens</h1>
        <p className="mt-1 max-w-2xl text-sm text-slate-600">Tokens pay for operations in the studio and through the API, at the same prices.</p>
      </div>
      {sessionId ? <CheckoutReturn sessionId={sessionId} /> : null}
      {premiumStarted ? (
        <p role="status" className="rounded-md border border-emerald-200 bg-emerald-50 px-4 py-3 text-sm text-emerald-900">
          Thank you: Premium starts as soon as Stripe confirms the subscription (usually within seconds). Reload to see your plan.
        </p>
      ) : null}
      {canceled ? <p className="rounded-md border border-slate-200 bg-slate-50 px-4 py-3 text-sm text-slate-700">Checkout canceled: nothing was charged.</p> : null}

      <div className="grid gap-6 lg:grid-cols-3">
        <BalanceCard showBuyLink={false} />
        <Card title="Token packs" className="lg:col-span-2">
          <TokenPacks />
        </Card>
      </div>

      <Card title="Auto top-up">
        <AutoTopUpCard />
      </Card>

      <Card title="How tokens work">
        <ul className="list-disc space-y-1.5 pl-5 text-sm text-slate-700">
          <li>Tokens are deducted from your wallet when an operation is accepted, before it runs.</li>
          <li>If the operation fails, its tokens are refunded automatically; the refund appears in your transactions.</li>
          <li>If your balance is too low, the operation is refused and nothing is deducted.</li>
        </ul>
      </Card>

      <Card title="Token costs">
        <TokenCostsTable />
      </Card>

      <Card title="Plans">
        <PlansComparison current={plan} />
        <PremiumActions plan={plan} />
      </Card>
    </div>
  );
}
