// Writes app/v1/openapi.json/routes.ts: the list of /v1 route modules that
// GET /v1/openapi.json describes. Run after adding or removing a route file:
//   npm run openapi:routes
import fs from "node:fs";
import path from "node:path";
import { listRouteFiles, MANIFEST_FILE, manifestSource } from "../lib/http/openapi/route-files";

const root = path.resolve(__dirname, "..");
const files = listRouteFiles(root);
fs.writeFileSync(path.join(root, MANIFEST_FILE), manifestSource(files));
console.log(`${MANIFEST_FILE}: ${files.length} route files`);
