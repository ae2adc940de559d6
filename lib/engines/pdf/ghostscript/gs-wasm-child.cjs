// Child process entry that runs Ghostscript compiled to WebAssembly
// (@jspawn/ghostscript-wasm 0.0.2, gs 9.56, AGPL): started by run-ghostscript.ts
// with `node gs-wasm-child.cjs <workdir> <args JSON>`, never loaded into the
// app's own process. The work folder is mounted at /work inside the wasm file
// system; gs arguments refer to files there. Exit code: gs's own.
"use strict";
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS child script run by plain node */
// The Emscripten loader prefers fetch() when it exists, and Node's fetch cannot
// read the file path it builds ("Failed to parse URL from .../gs.wasm").
globalThis.fetch = undefined;
const path = require("node:path");

async function main() {
  const [workdir, argsJson] = process.argv.slice(2);
  const args = JSON.parse(argsJson);
  const createModule = require("@jspawn/ghostscript-wasm");
  const gs = await createModule({
    noInitialRun: true,
    print: (line) => process.stdout.write(line + "\n"),
    printErr: (line) => process.stderr.write(line + "\n"),
  });
  gs.FS.mkdir("/work");
  gs.FS.mount(gs.NODEFS || gs.FS.filesystems.NODEFS, { root: path.resolve(workdir) }, "/work");
  let code = 0;
  try {
    code = gs.callMain(args) || 0;
  } catch (err) {
    // Emscripten signals exit() by throwing an ExitStatus.
    code = typeof err?.status === "number" ? err.status : 1;
    if (typeof err?.status !== "number") process.stderr.write(String(err?.stack ?? err) + "\n");
  }
  process.exitCode = code;
}

main().catch((err) => {
  process.stderr.write(String(err?.stack ?? err) + "\n");
  process.exitCode = 1;
});
