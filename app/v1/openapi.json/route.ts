import { z } from "zod";
import { withPublic } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { appOrigin } from "@/lib/foundation/http/app-origin";
import { buildOpenApiDocument } from "@/lib/http/openapi/build-document";
import { loadRoutes } from "@/lib/http/openapi/load-routes";
import { routeModules } from "./routes";

export const dynamic = "force-dynamic";

let cached: Promise<ReturnType<typeof buildOpenApiDocument>> | undefined;

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withPublic(
    {
      doc: {
        summary: "This API's OpenAPI 3.1 description",
        description: "Generated from the zod schemas the handlers parse with. Public.",
        response: z.looseObject({ openapi: z.literal("3.1.0"), info: z.looseObject({ title: z.string(), version: z.string() }), paths: z.record(z.string(), z.unknown()) }),
      },
    },
    async () => {
      cached ??= loadRoutes(routeModules).then((routes) => buildOpenApiDocument(routes));
      const doc = await cached;
      // The server is the origin the caller used, so the reference page's try-it-out calls this server.
      return Response.json({ ...doc, servers: [{ url: appOrigin() }] }, { headers: { "Cache-Control": "public, max-age=300", "Access-Control-Allow-Origin": "*" } });
    },
  ),
});
