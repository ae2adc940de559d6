/** PostgreSQL's unique_violation, from either driver (drizzle wraps the driver error in `cause`). */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  for (let e = err as { code?: string; constraint?: string; constraint_name?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === "23505") {
      const name = e.constraint ?? e.constraint_name;
      return !constraint || !name || name === constraint;
    }
  }
  return false;
}
