import type { ReactNode } from "react";

/** Grey placeholder rows while a list loads; `label` is read to screen readers. */
export function ListSkeleton({ label, rows = 4, rowClassName = "h-10" }: { label: string; rows?: number; rowClassName?: string }) {
  return (
    <div role="status" className="space-y-2">
      <span className="sr-only">{label}</span>
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className={`${rowClassName} animate-pulse rounded bg-slate-100`} />
      ))}
    </div>
  );
}

/** What an empty list says instead of an empty table. */
export function EmptyState({ children }: { children: ReactNode }) {
  return <p className="rounded-md border border-dashed border-slate-200 py-10 text-center text-sm text-slate-500">{children}</p>;
}
