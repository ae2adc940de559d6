import type { DbHandle } from "./open-pglite";

// One handle per process, kept on globalThis so Next's dev reloads and separate
// route bundles share it (a second PGlite on the same folder would corrupt it).
// Its own module, free of the drivers, so a caller can ask whether a database was
// opened without loading PGlite, postgres.js and the schema (about 2 s).
export const holder = globalThis as unknown as { __printStudioDb?: Promise<DbHandle> };

/** Whether this process has opened (or is opening) its database. */
export function dbOpened(): boolean {
  return holder.__printStudioDb !== undefined;
}
