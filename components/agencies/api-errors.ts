import { ApiRequestError } from "@/lib/client/api-fetch";

export type LineError = { line: number; field?: string; message: string };

/** `details.errors` of a refused CSV import: one entry per bad line. */
export function lineErrors(err: unknown): LineError[] {
  if (!(err instanceof ApiRequestError)) return [];
  return (err.body.details as { errors?: LineError[] } | undefined)?.errors ?? [];
}

export function errorMessage(err: unknown): string | undefined {
  if (!err) return undefined;
  return err instanceof Error ? err.message : "Something went wrong.";
}
