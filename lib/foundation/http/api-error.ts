/**
 * The one error type that crosses the /v1 boundary. Anything else thrown by a
 * handler becomes a generic 500 (see to-error-response.ts), so internals never leak.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
    /** Extra top-level body fields the contract requires (e.g. the 402 wallet body). */
    readonly extraBody?: Record<string, unknown>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export const badRequest = (code: string, message: string, details?: Record<string, unknown>) =>
  new ApiError(400, code, message, details);

export const notFound = (what = "Resource") =>
  new ApiError(404, "NOT_FOUND", `${what} not found.`);

export const unauthorized = (message = "Authentication required: send Authorization: Bearer <token>.") =>
  new ApiError(401, "UNAUTHORIZED", message, undefined, undefined, { "WWW-Authenticate": 'Bearer realm="v1"' });

export const forbidden = (code: string, message: string) => new ApiError(403, code, message);

export const conflict = (code: string, message: string) => new ApiError(409, code, message);
