// `npm start`: runs the standalone server that `npm run build` made, from the
// project folder. The standalone server changes into its own folder, which the
// next build replaces, so relative data paths are pinned to the project first.
//
// On Linux the server runs in a child process started with glibc's malloc settings
// (scripts/malloc-tunables.mjs): they must be in the environment when a process starts.
// Signals are passed on and the child's exit is ours. Set GLIBC_TUNABLES yourself (even
// empty) to run the server in this process with your own.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { MALLOC_TUNABLES } from "./malloc-tunables.mjs";

const server = path.resolve(process.env.NEXT_DIST_DIR ?? ".next", "standalone", "server.js");
if (!fs.existsSync(server)) {
  console.error(`${server} not found: run \`npm run build\` first.`);
  process.exit(1);
}
process.env.DATA_DIR = path.resolve(process.env.DATA_DIR ?? ".data");
process.env.NODE_ENV = "production";

if (process.platform === "linux" && process.env.GLIBC_TUNABLES === undefined) {
  const child = spawn(process.execPath, [...process.execArgv, server], { stdio: "inherit", env: { ...process.env, GLIBC_TUNABLES: MALLOC_TUNABLES } });
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => child.kill(signal));
  // A child ended by a signal exits as a shell reports it (128 + the signal's number).
  child.on("exit", (code, signal) => process.exit(code ?? 128 + (os.constants.signals[signal] ?? 0)));
} else {
  await import(server);
}
