import { ApiError } from "../foundation/http/api-error";
import type { Handler } from "./create-handler";
import { errorResponse } from "./error-response";
import { requestIdFor } from "../foundation/http/request-id";
import { markNotAllowed } from "./route-meta";

const ALL = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof ALL)[number];

/**
 * A route's handlers, with a JSON 405 (and Allow) for every method it lacks:
 * Next's own 405 has no body and no request id.
 * Usage: `export const { GET, POST, PUT, PATCH, DELETE } = methods({ GET: ..., POST: ... })`.
 */
export function methods(handlers: Partial<Record<Method, Handler>>): Record<Method, Handler> {
  const allow = ALL.filter((m) => handlers[m]).join(", ");
  const notAllowed: Handler = markNotAllowed(async (req: Request) =>
    errorResponse(
      new ApiError(405, "METHOD_NOT_ALLOWED", `${req.method} is not supported here. Allowed: ${allow}.`, undefined, undefined, { Allow: allow }),
      requestIdFor(req),
    ),
  );
  return Object.fromEntries(ALL.map((m) => [m, handlers[m] ?? notAllowed])) as Record<Method, Handler>;
}
