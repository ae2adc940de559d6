/** PostgreSQL's foreign_key_violation (23503) from either driver; drizzle wraps the driver error in `cause`. */
export function isForeignKeyViolation(err: unknown): boolean {
  for (let e = err as { code?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === "23503") return true;
  }
  return false;
}
