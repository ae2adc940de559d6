/** The message to show above a form when no field took it. */
export function formError(err: unknown, fields: Record<string, string | undefined>, known: readonly string[]): string | undefined {
  if (!err) return undefined;
  const placed = Object.keys(fields).some((f) => known.includes(f));
  return placed ? undefined : err instanceof Error ? err.message : "Something went wrong.";
}
