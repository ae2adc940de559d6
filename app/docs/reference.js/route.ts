import { referenceBundle } from "@/lib/http/openapi/reference-page";

export const dynamic = "force-dynamic";

/** Scalar's standalone bundle, served from node_modules (never a CDN). */
export async function GET(): Promise<Response> {
  return new Response(await referenceBundle(), {
    headers: { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
