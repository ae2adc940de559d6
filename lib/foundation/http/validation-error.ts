import type { ZodError } from "zod";
import { ApiError } from "./api-error";

type FieldError = { field: string; message: string };

/**
 * zod issues -> 400 naming every failing field path. Unknown keys are split
 * into one entry per key so a client's typo is named exactly.
 */
export function validationError(err: ZodError, where: "body" | "query" | "params" = "body"): ApiError {
  const fields: FieldError[] = [];
  for (const issue of err.issues) {
    const base = issue.path.map(String).join(".");
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        fields.push({ field: base ? `${base}.${key}` : key, message: "Unknown field: not part of this endpoint." });
      }
    } else {
      fields.push({ field: base || "(root)", message: issue.message });
    }
  }
  const summary = fields.map((f) => `${f.field}: ${f.message}`).join("; ");
  return new ApiError(400, "VALIDATION_ERROR", `Invalid ${where}: ${summary}`, { in: where, fields });
}
