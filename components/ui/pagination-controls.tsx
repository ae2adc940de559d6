import { Button } from "@/components/ui/button";
import type { Paginated } from "@/lib/client/list-envelopes";

/** Previous / "Page X of Y" / Next for a /v1 list envelope's `meta`; nothing when everything fits on one page. */
export function PaginationControls({
  meta,
  onPageChange,
  disabled = false,
  label = "Pagination",
  className = "",
}: {
  meta: Paginated<unknown>["meta"];
  onPageChange: (page: number) => void;
  disabled?: boolean;
  label?: string;
  className?: string;
}) {
  const { current_page: page, last_page: last } = meta;
  if (last <= 1) return null;
  return (
    <nav aria-label={label} className={`flex items-center justify-between gap-3 text-sm ${className}`}>
      <Button type="button" variant="secondary" disabled={disabled || page <= 1} onClick={() => onPageChange(page - 1)}>
        Previous
      </Button>
      <p className="text-slate-600" aria-live="polite">
        Page {page} of {last}
      </p>
      <Button type="button" variant="secondary" disabled={disabled || page >= last} onClick={() => onPageChange(page + 1)}>
        Next
      </Button>
    </nav>
  );
}
