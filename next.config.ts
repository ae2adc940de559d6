import type { NextConfig } from "next";

const nextConfig: NextConfig = {
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
  ],
  poweredByHeader: false,
  // Lets several builds live side by side (e.g. parallel e2e runs on one checkout).
  distDir: process.env.NEXT_DIST_DIR ?? ".next",
};

export default nextConfig;
