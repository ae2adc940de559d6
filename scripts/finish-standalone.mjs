// After `next build`: completes .next/standalone into a folder that runs alone.
// Next.js leaves the browser assets (.next/static) and public/ out of it, since a
// CDN usually serves them; this server serves them itself.
import fs from "node:fs";
import path from "node:path";

const dist = process.env.NEXT_DIST_DIR ?? ".next";
const standalone = path.join(dist, "standalone");
if (!fs.existsSync(standalone)) {
  console.error(`${standalone} not found: next.config.ts must set output: "standalone"`);
  process.exit(1);
}
fs.cpSync(path.join(dist, "static"), path.join(standalone, dist, "static"), { recursive: true });
if (fs.existsSync("public")) fs.cpSync("public", path.join(standalone, "public"), { recursive: true });
console.log(`standalone server ready: node ${path.join(standalone, "server.js")}`);
