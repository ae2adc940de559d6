// Regenerates lib/client/api-client/schema.ts (the typed client's types) from the OpenAPI
// document the server builds: run after changing a route's schemas or doc.
//   npm run api-client
import fs from "node:fs";
import path from "node:path";
import { routeModules } from "@/app/v1/openapi.json/routes";
import { buildOpenApiDocument } from "@/lib/http/openapi/build-document";
import { clientTypesSource } from "@/lib/http/openapi/client-types";
import { loadRoutes } from "@/lib/http/openapi/load-routes";

export const CLIENT_TYPES_FILE = "lib/client/api-client/schema.ts";

async function main() {
  const doc = buildOpenApiDocument(await loadRoutes(routeModules));
  const file = path.resolve(__dirname, "..", CLIENT_TYPES_FILE);
  fs.writeFileSync(file, await clientTypesSource(doc));
  console.log(`${CLIENT_TYPES_FILE}: ${Object.keys(doc.paths).length} paths`);
  process.exit(0);
}

void main();
