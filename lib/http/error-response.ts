import { ZodError } from "zod";
import { logger } from "@/lib/foundation/log/logger";
import { ApiError } from "../foundation/http/api-error";
import { validationError } from "../foundation/http/validation-error";

/** The one place an error becomes a response: `{ error, message, details?, request_id }`. */
export function errorResponse(err: unknown, requestId: string): Response {
  const apiError = toApiError(err);
  if (!apiError) {
    logger().error({ request_id: requestId, err }, "unhandled error");
  }
  const e = apiError ?? new ApiError(500, "INTERNAL_ERROR", "Something went wrong on our side. Retry later, and quote the request id if it persists.");
  const body = {
    error: e.code,
    message: e.message,
    ...(e.details ? { details: e.details } : {}),
    ...e.extraBody,
    request_id: requestId,
  };
  return Response.json(body, { status: e.status, headers: { ...e.headers, "X-Request-Id": requestId } });
}

function toApiError(err: unknown): ApiError | undefined {
  if (err instanceof ApiError) return err;
  if (err instanceof ZodError) return validationError(err);
  return undefined;
}
