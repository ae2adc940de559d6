import { ApiRequestError } from "@/lib/client/api-fetch";

/**
 * Per-field messages from a /v1 error: VALIDATION_ERROR's details.fields, and
 * the single `details.field` of conflicts and 404s on references (SKU_TAKEN,
 * PRODUCT_ARCHIVED, NOT_FOUND for product_id / preflight_report_id).
 */
export function fieldErrors(err: unknown): Record<string, string> {
  if (!(err instanceof ApiRequestError)) return {};
  const details = err.body.details as { fields?: { field: string; message: string }[]; field?: string } | undefined;
  const out: Record<string, string> = {};
  for (const f of details?.fields ?? []) out[f.field] ??= f.message;
  if (details?.field) out[details.field] ??= err.message;
  return out;
}

/** The message to show above a form when no field took it. */
export function formError(err: unknown, fields: Record<string, string | undefined>, known: readonly string[]): string | undefined {
  if (!err) return undefined;
  const placed = Object.keys(fields).some((f) => known.includes(f));
  return placed ? undefined : err instanceof Error ? err.message : "Something went wrong.";
}
