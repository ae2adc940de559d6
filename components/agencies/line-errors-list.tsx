import type { LineError } from "./api-errors";

/** "Line 3 (name): Required." for each problem found in a pasted or uploaded CSV. */
export function LineErrorsList({ errors, className = "", testId }: { errors: readonly LineError[]; className?: string; testId?: string }) {
  return (
    <ul className={`list-disc ${className}`} data-testid={testId}>
      {errors.map((e, i) => (
        <li key={i}>
          Line {e.line}
          {e.field ? ` (${e.field})` : ""}: {e.message}
        </li>
      ))}
    </ul>
  );
}
