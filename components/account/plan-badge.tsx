export function PlanBadge({ plan }: { plan: string }) {
  const premium = plan === "premium";
  return (
    <span
      className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium uppercase tracking-wide ring-1 ring-inset ${
        premium ? "bg-brand-50 text-brand-700 ring-brand-500/30" : "bg-slate-100 text-slate-700 ring-slate-500/20"
      }`}
    >
      {plan}
    </span>
  );
}
