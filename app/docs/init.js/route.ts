import { referenceInitScript } from "@/lib/http/openapi/reference-page";

export const dynamic = "force-static";

export function GET(): Response {
  return new Response(referenceInitScript(), { headers: { "Content-Type": "text/javascript; charset=utf-8" } });
}
