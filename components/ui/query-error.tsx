import { Button } from "@/components/ui/button";

/** Inline error state for a failed query, with a retry. */
export function QueryError({ title, error, onRetry }: { title: string; error: unknown; onRetry?: () => void }) {
  const detail = error instanceof Error ? error.message : "Something went wrong.";
  return (
    <div role="alert" className="flex flex-wrap items-center justify-between gap-3 rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-700">
      <p>
        <span className="font-medium">{title}</span> {detail}
      </p>
      {onRetry ? (
        <Button type="button" variant="secondary" onClick={onRetry}>
          Try again
        </Button>
      ) : null}
    </div>
  );
}
