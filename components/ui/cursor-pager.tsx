import { Button } from "@/components/ui/button";
import type { CursorList } from "@/lib/client/list-envelopes";

/** The cursor of a list link, or null for the first page. */
export function cursorOf(link: string | null): string | null {
  return link ? new URL(link).searchParams.get("cursor") : null;
}

/** Previous / Next over a keyset list: follows the envelope's links (there are no page numbers). */
export function CursorPager({
  links,
  onCursor,
  disabled = false,
  label,
}: {
  links: CursorList<unknown>["links"];
  onCursor: (cursor: string | null) => void;
  disabled?: boolean;
  label: string;
}) {
  if (!links.prev && !links.next) return null;
  return (
    <nav aria-label={label} className="flex items-center justify-between gap-3 text-sm">
      <div className="flex gap-2">
        <Button type="button" variant="secondary" disabled={disabled || !links.prev} onClick={() => onCursor(null)}>
          First
        </Button>
        <Button type="button" variant="secondary" disabled={disabled || !links.prev} onClick={() => onCursor(cursorOf(links.prev))}>
          Previous
        </Button>
      </div>
      <div className="flex gap-2">
        <Button type="button" variant="secondary" disabled={disabled || !links.next} onClick={() => onCursor(cursorOf(links.next))}>
          Next
        </Button>
        <Button type="button" variant="secondary" disabled={disabled || !links.next} onClick={() => onCursor(cursorOf(links.last))}>
          Last
        </Button>
      </div>
    </nav>
  );
}
