import type { ReactNode } from "react";

export type Column = { label: string; align?: "left" | "right"; srOnly?: boolean };

/** A short stable name for a table's label rules (the same on the server and in the browser). */
function tableKey(text: string): string {
  let h = 5381;
  for (let i = 0; i < text.length; i++) h = (h * 33) ^ text.charCodeAt(i);
  return (h >>> 0).toString(36);
}

/**
 * On a phone (below 640 px, globals.css `stack-table`) each row becomes a card and
 * each cell a line led by its column's label: written here once, by position,
 * so the pages' rows need no change. A column shown only to screen readers stays unnamed.
 */
function phoneLabels(key: string, columns: readonly Column[]): string {
  const cell = (n: number) => `table.stack-table[data-dt="${key}"]>tbody>tr>td:nth-child(${n}):not([colspan])`;
  const rules = columns.flatMap((c, i) => (c.srOnly ? [] : [`${cell(i + 1)}{padding-left:7.25rem}`, `${cell(i + 1)}::before{content:${JSON.stringify(c.label).replace(/</g, "\\3c ")}}`]));
  return `@media (max-width:639.98px){${rules.join("")}}`;
}

/**
 * The studio's list table: a header row from `columns`, the rows as children.
 * `stale` dims the rows while the next page loads over the previous one.
 */
export function DataTable({ caption, columns, stale = false, busy, children }: { caption: string; columns: readonly Column[]; stale?: boolean; busy?: boolean; children: ReactNode }) {
  const key = tableKey(caption + columns.map((c) => c.label).join("|"));
  return (
    <div className="-mx-5 overflow-x-auto">
      {/* Our own column labels (constants, "<" escaped), as raw CSS: text children would be HTML-escaped on the server. */}
      <style dangerouslySetInnerHTML={{ __html: phoneLabels(key, columns) }} />
      <table className="stack-table stack-bleed w-full text-left text-sm" aria-busy={busy} data-dt={key}>
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
