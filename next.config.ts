import type { NextConfig } from "next";
import { engineTraceExcludes, engineTraceIncludes } from "./lib/engines/workers/engine-files";

const nextConfig: NextConfig = {
  // A self-contained server in .next/standalone: the traced node_modules, the
  // compiled engine workers and their model files, no source tree, no tsx
  // (scripts/standalone-smoke.ts proves it from an empty folder).
  output: "standalone",
  // Native and WebAssembly engines load from node_modules at run time instead
  // of being bundled (PGlite's wasm, argon2's binary, sharp's libvips ...).
  serverExternalPackages: [
    "@electric-sql/pglite",
    "@node-rs/argon2",
    "postgres",
    "proper-lockfile",
    "rate-limiter-flexible",
    "ioredis",
    "undici",
    "file-type",
    "sharp",
    "onnxruntime-node",
    "pino",
    "pino-pretty",
    "zxing-wasm",
    // Bundled, its UMD build cannot require fs and zlib ("Couldn't load zlib" in the server's log),
    // so compressed PNG metadata went unread; from node_modules it requires them as in tests.
    "exifr",
  ],
  // Files the engines open by path (model weights), which no import can show the
  // tracer, and other platforms' native binaries, which it would carry along.
  outputFileTracingIncludes: engineTraceIncludes,
  outputFileTracingExcludes: engineTraceExcludes,
  poweredByHeader: false,
  // CI runs `next typegen` and then `tsc --noEmit` over the same tree (route types included)
  // before it builds, so it sets NEXT_BUILD_TYPES_CHECKED=1 and the build does not type-check
  // a second time (about a minute on 2 cores). Everyone else's build checks types as usual.
  typescript: { ignoreBuildErrors: process.env.NEXT_BUILD_TYPES_CHECKED === "1" },
  // Lets several builds live side by side (e.g. parallel e2e runs on one checkout).
  distDir: process.env.NEXT_DIST_DIR ?? ".next",
};

export default nextConfig;
