import type { ApiSchema } from "@/lib/client/api-client";
import { ApiRequestError } from "./api-fetch";

/** The error envelope of every /v1 answer >= 400, as the OpenAPI document describes it. */
export type ApiErrorBody = ApiSchema<"Error">;
export type FieldError = NonNullable<NonNullable<ApiErrorBody["details"]>["fields"]>[number];

/** The body of a failed request: the studio's ApiRequestError, or a body a test read itself. */
function errorBody(err: unknown): Partial<ApiErrorBody> | undefined {
  if (err instanceof ApiRequestError) return err.body;
  if (err && typeof err === "object" && !(err instanceof Error)) return err as Partial<ApiErrorBody>;
  return undefined;
}

/** `details.fields` of a refusal, in the order the server found them (empty for anything else). */
export function fieldErrorList(err: unknown): FieldError[] {
  return errorBody(err)?.details?.fields ?? [];
}

/**
 * Per-field messages of a refusal, keyed by field path ("name", "subjects.3.name"):
 * VALIDATION_ERROR's `details.fields` (the first message of a field wins). With
 * `single`, also the one `details.field` a conflict or a missing reference names
 * (SKU_TAKEN, DUPLICATE_STUDENT_ID, NOT_FOUND for product_id), under the error's message.
 */
export function fieldErrors(err: unknown, opts: { single?: boolean } = {}): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of fieldErrorList(err)) out[f.field] ??= f.message;
  const body = errorBody(err);
  const single = body?.details?.field;
  if (opts.single && single) out[single] ??= err instanceof Error ? err.message : (body.message ?? "");
  return out;
}
