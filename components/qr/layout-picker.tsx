import { LockIcon } from "./lock-icon";
import { cardsPerPage } from "@/lib/services/qr/values";
import type { QrLayout } from "./roster-rows";

const OPTIONS: Array<{ value: QrLayout; label: string; note: string; premium: boolean }> = [
  { value: "4up", label: "4 per page", note: "2 × 2 cards, 3.75 × 5 in", premium: false },
  { value: "9up", label: "9 per page", note: "3 × 3 cards, 2.5 × 3.3 in", premium: true },
  { value: "single", label: "1 per page", note: "one large card per sheet", premium: true },
];

/** Layout choice; Premium layouts stay visible but locked on the free plan, with the reason. */
export function LayoutPicker({ value, onChange, premium }: { value: QrLayout; onChange: (v: QrLayout) => void; premium: boolean }) {
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-700">Layout</legend>
      <div className="mt-2 grid gap-2 sm:grid-cols-3">
        {OPTIONS.map((o) => {
          const locked = o.premium && !premium;
          return (
            <label
              key={o.value}
              className={`flex gap-2 rounded-md border p-3 text-sm ${value === o.value ? "border-brand-500 bg-brand-50" : "border-slate-200"} ${locked ? "cursor-not-allowed opacity-60" : "cursor-pointer"}`}
              title={locked ? "Premium plan only" : undefined}
            >
              <input type="radio" name="layout" value={o.value} checked={value === o.value} disabled={locked} onChange={() => onChange(o.value)} aria-describedby={`layout-${o.value}-note`} />
              <span>
                <span className="font-medium text-slate-900">
                  {o.label} {locked ? (
                    <span className="ml-1 whitespace-nowrap text-xs font-normal text-amber-700">
                      <LockIcon /> Premium
                    </span>
                  ) : null}
                </span>
                <span id={`layout-${o.value}-note`} className="block text-xs text-slate-500">
                  {o.note} · {cardsPerPage(o.value)} card{cardsPerPage(o.value) > 1 ? "s" : ""} a sheet
                </span>
              </span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
