import type { PlannedCheck } from "./types";

/** The checks a preflight runs and those it skips, each with why. */
export function CheckPlan({ plan, title, testId }: { plan: PlannedCheck[]; title: string; testId: string }) {
  return (
    <div data-testid={testId} className="rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-xs text-slate-700">
      <p className="mb-1 font-semibold text-slate-800">{title}</p>
      <ul className="space-y-0.5">
        {plan.map((c) => (
          <li key={c.check} data-checked={c.checked ? "true" : "false"} className={c.checked ? "" : "text-slate-500"}>
            <span aria-hidden className="mr-1">{c.checked ? "✓" : "–"}</span>
            <span className="font-medium">{c.check}</span>: {c.detail}
          </li>
        ))}
      </ul>
    </div>
  );
}
