import path from "node:path";

/**
 * The press CMYK profile RGB is converted through: FOGRA39L (coated offset),
 * built with ArgyllCMS from Debian's icc-profiles-free characterisation data
 * (Zlib licence; provenance in lib/engines/imaging/profiles/README.md). Resolved in
 * one place so a production build that moves files only changes this line.
 */
export function pressProfilePath(): string {
  // Traced into the build by lib/engines/workers/engine-files.ts (the bundler must not guess at cwd).
  return path.join(/* turbopackIgnore: true */ process.cwd(), "lib", "engines", "imaging", "profiles", "fogra39l-argyll.icc");
}

export const PRESS_PROFILE_NAME = "FOGRA39L coated offset (ArgyllCMS)";
