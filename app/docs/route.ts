import { referencePageHtml } from "@/lib/http/openapi/reference-page";

export const dynamic = "force-static";

/** The API reference page, rendered in the browser from GET /v1/openapi.json. */
export function GET(): Response {
  return new Response(referencePageHtml(), { headers: { "Content-Type": "text/html; charset=utf-8" } });
}
