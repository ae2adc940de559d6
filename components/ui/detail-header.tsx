import Link from "next/link";
import type { ReactNode } from "react";

/**
 * The top of a detail page: the way back to its list, the title (with a status
 * badge beside it), and what follows in `children` (ids, dates, counts, actions).
 */
export function DetailHeader({ back, title, badge, children }: { back: { href: string; label: string }; title: ReactNode; badge?: ReactNode; children?: ReactNode }) {
  return (
    <div>
      <Link href={back.href} className="text-sm text-brand-600 hover:underline">
        ← {back.label}
      </Link>
      <div className="mt-1 flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-semibold text-slate-900">{title}</h1>
        {badge}
      </div>
      {children}
    </div>
  );
}
