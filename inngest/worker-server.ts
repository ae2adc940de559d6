// The worker app: the same Inngest functions as the Next.js app (inngest/functions.ts,
// one defineJob list), served by a small long-running Node process at /api/inngest.
// For deployments where the web app runs on serverless functions (Vercel) that
// cannot hold the engines (models of hundreds of MB, minutes of work): the web app
// accepts requests, debits and sends events; Inngest calls this process to run them.
//
//   npm run worker            (builds with scripts/build-worker.mjs, then runs this)
//
// Needs the web app's DATABASE_URL, S3_* and AUTH_SECRET, and the Inngest keys
// (INNGEST_SIGNING_KEY + INNGEST_EVENT_KEY, INNGEST_BASE_URL for self-hosted, or
// INNGEST_DEV for a dev server). WORKER_PORT (3001) and WORKER_HOST (0.0.0.0) set the address.
import http from "node:http";
import { serve } from "inngest/node";
import { z } from "zod";
import { inngest } from "@/lib/domain/jobs/inngest-client";
import { jobFunctions } from "@/inngest/functions";
import { registerAppJobs } from "@/inngest/register";
import { dbHandle } from "@/lib/foundation/db/client";
import { jobsMode } from "@/lib/domain/jobs/jobs-mode";
import { warmUpJobs } from "@/lib/domain/jobs/runner/runner-instance";
import { warmUpAtStart } from "@/lib/domain/jobs/runner/runner-options";
import { logger } from "@/lib/foundation/log/logger";
import { parseEnv } from "@/lib/foundation/parse-env";

registerAppJobs();

const settings = parseEnv(
  z.object({
    WORKER_PORT: z.coerce.number().int().min(1).max(65535).default(3001),
    WORKER_HOST: z.string().default("0.0.0.0"),
    DATABASE_URL: z.string({ message: "the worker app shares the web app's PostgreSQL database: set DATABASE_URL" }).min(1),
  }),
  process.env,
  "worker app",
);

async function main() {
  if (jobsMode() !== "inngest") {
    throw new Error("the worker app runs jobs for Inngest: set INNGEST_SIGNING_KEY and INNGEST_EVENT_KEY (or INNGEST_BASE_URL, or INNGEST_DEV)");
  }
  // Migrated and reachable before Inngest is told we exist.
  await dbHandle();
  if (warmUpAtStart()) void warmUpJobs();
  const inngestHandler = serve({ client: inngest, functions: jobFunctions.map((j) => j.fn), servePath: "/api/inngest" });
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://worker").pathname;
    if (path === "/api/inngest") return void inngestHandler(req, res);
    if (path === "/api/health") return void res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
    res.writeHead(404, { "content-type": "application/json" }).end('{"error":"NOT_FOUND"}');
  });
  server.listen(settings.WORKER_PORT, settings.WORKER_HOST, () => {
    logger().info({ port: settings.WORKER_PORT, functions: jobFunctions.map((j) => j.fn.id()) }, "worker app serving Inngest functions at /api/inngest");
  });
  const stop = () => server.close(() => process.exit(0));
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}

main().catch((err) => {
  console.error(`[worker] cannot start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
