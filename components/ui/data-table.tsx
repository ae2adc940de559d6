import type { ReactNode } from "react";

export type Column = { label: string; align?: "left" | "right"; srOnly?: boolean };

/**
 * The studio's list table: a header row from `columns`, the rows as children.
 * `stale` dims the rows while the next page loads over the previous one.
 */
export function DataTable({ caption, columns, stale = false, busy, children }: { caption: string; columns: readonly Column[]; stale?: boolean; busy?: boolean; children: ReactNode }) {
  return (
    <div className="-mx-5 overflow-x-auto">
      <table className="w-full text-left text-sm" aria-busy={busy}>
        <caption className="sr-only">{caption}</caption>
        <thead className="border-y border-slate-200 bg-slate-50 text-xs uppercase tracking-wide text-slate-500">
          <tr>
            {columns.map((c) => (
              <th key={c.label} scope="col" className={`px-4 py-2 font-medium ${c.align === "right" ? "text-right" : ""}`}>
                {c.srOnly ? <span className="sr-only">{c.label}</span> : c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className={`divide-y divide-slate-100 ${stale ? "opacity-60" : ""}`}>{children}</tbody>
      </table>
    </div>
  );
}
