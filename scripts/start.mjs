// `npm start`: runs the standalone server that `npm run build` made, from the
// project folder. The standalone server changes into its own folder, which the
// next build replaces, so relative data paths are pinned to the project first.
import fs from "node:fs";
import path from "node:path";

const server = path.resolve(process.env.NEXT_DIST_DIR ?? ".next", "standalone", "server.js");
if (!fs.existsSync(server)) {
  console.error(`${server} not found: run \`npm run build\` first.`);
  process.exit(1);
}
process.env.DATA_DIR = path.resolve(process.env.DATA_DIR ?? ".data");
process.env.NODE_ENV = "production";
await import(server);
