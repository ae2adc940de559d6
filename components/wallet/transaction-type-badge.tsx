import type { TransactionType } from "./types";

const STYLES: Record<TransactionType, string> = {
  grant: "bg-emerald-50 text-emerald-700 ring-emerald-600/20",
  debit: "bg-slate-100 text-slate-700 ring-slate-500/20",
  refund: "bg-amber-50 text-amber-800 ring-amber-600/20",
  purchase: "bg-brand-50 text-brand-700 ring-brand-600/20",
  reversal: "bg-red-50 text-red-700 ring-red-600/20",
};

const LABELS: Record<TransactionType, string> = { grant: "Grant", debit: "Debit", refund: "Refund", purchase: "Purchase", reversal: "Taken back" };

export function TransactionTypeBadge({ type }: { type: TransactionType }) {
  return (
    <span className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${STYLES[type] ?? STYLES.debit}`}>
      {LABELS[type] ?? type}
    </span>
  );
}
