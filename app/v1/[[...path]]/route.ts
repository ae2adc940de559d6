import { ApiError } from "@/lib/foundation/http/api-error";
import { errorResponse } from "@/lib/http/error-response";
import { requestIdFor } from "@/lib/foundation/http/request-id";

export const dynamic = "force-dynamic";

// Any /v1 path without a route of its own: a JSON 404, never Next's HTML page.
async function unknownPath(req: Request): Promise<Response> {
  const path = new URL(req.url).pathname;
  return errorResponse(new ApiError(404, "NOT_FOUND", `No endpoint at ${req.method} ${path}. The endpoints are listed in docs/api.md.`), requestIdFor(req));
}

export { unknownPath as GET, unknownPath as POST, unknownPath as PUT, unknownPath as PATCH, unknownPath as DELETE };
