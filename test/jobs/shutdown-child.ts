// A server process for the graceful-shutdown test: a stand-in for Next.js's own
// SIGTERM listener (registered first, like `next start` does), then the app's
// shutdown hook around an embedded runner, exactly as lib/domain/jobs/server-start.ts wires it.
import { getDb } from "@/lib/foundation/db/client";
import { onShutdown } from "@/lib/foundation/graceful-shutdown";
import { EmbeddedRunner } from "@/lib/domain/jobs/runner/embedded-runner";
import { fastOptions } from "./runner-harness";
import { shutdownJob } from "./shutdown-job";

process.on("SIGTERM", () => {
  console.log("FRAMEWORK");
  process.exit(143);
});

async function main() {
  const runner = new EmbeddedRunner([shutdownJob], fastOptions({ leaseMs: 30_000, drainMs: Number(process.env.DRAIN_MS) }), getDb);
  await runner.start();
  onShutdown(async () => {
    await runner.stop();
    console.log("STOPPED");
  });
  console.log("READY");
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
