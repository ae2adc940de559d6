import { ApiRequestError } from "@/lib/client/api-fetch";

export type FieldError = { field: string; message: string };
export type LineError = { line: number; field?: string; message: string };

/** `details.fields` of a 400, keyed by field path ("name", "subjects.3.name" ...). */
export function fieldErrors(err: unknown): Record<string, string> {
  if (!(err instanceof ApiRequestError)) return {};
  const fields = (err.body.details as { fields?: FieldError[] } | undefined)?.fields ?? [];
  return Object.fromEntries(fields.map((f) => [f.field, f.message]));
}

/** `details.errors` of a refused CSV import: one entry per bad line. */
export function lineErrors(err: unknown): LineError[] {
  if (!(err instanceof ApiRequestError)) return [];
  return (err.body.details as { errors?: LineError[] } | undefined)?.errors ?? [];
}

export function errorMessage(err: unknown): string | undefined {
  if (!err) return undefined;
  return err instanceof Error ? err.message : "Something went wrong.";
}
