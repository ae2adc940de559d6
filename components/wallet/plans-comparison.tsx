type Plan = { id: "free" | "premium"; name: string; features: string[] };

const PLANS: Plan[] = [
  { id: "free", name: "Free", features: ["QR cards in the 4-up layout", "100 preflight full checks a month", "All other operations billed in tokens"] },
  {
    id: "premium",
    name: "Premium",
    features: ["QR cards in single and 9-up layouts", "Custom logos on QR cards", "5,000 preflight full checks a month", "All other operations billed in tokens"],
  },
];

/** Free vs Premium; `current` marks the signed-in account's plan. */
export function PlansComparison({ current }: { current?: string }) {
  return (
    <ul className="grid gap-4 sm:grid-cols-2">
      {PLANS.map((plan) => {
        const isCurrent = plan.id === current;
        return (
          <li
            key={plan.id}
            aria-current={isCurrent ? "true" : undefined}
            className={`rounded-lg border p-4 ${isCurrent ? "border-brand-500 bg-brand-50" : "border-slate-200 bg-white"}`}
          >
            <div className="flex items-center justify-between gap-2">
              <h3 className="font-semibold text-slate-900">{plan.name}</h3>
              {isCurrent ? <span className="rounded-full bg-brand-600 px-2 py-0.5 text-xs font-medium text-white">Your plan</span> : null}
            </div>
            <ul className="mt-3 space-y-1.5 text-sm text-slate-700">
              {plan.features.map((f) => (
                <li key={f} className="flex gap-2">
                  <span aria-hidden="true" className="text-brand-600">
                    ✓
                  </span>
                  {f}
                </li>
              ))}
            </ul>
          </li>
        );
      })}
    </ul>
  );
}
