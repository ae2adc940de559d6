import fs from "node:fs";
import path from "node:path";
import lockfile from "proper-lockfile";

/**
 * PGlite has no lock of its own: two processes on one data folder corrupt it.
 * proper-lockfile keeps a lock directory fresh while we live and treats it as
 * stale (takeable) once its owner has stopped refreshing it for `stale` ms.
 */
export async function lockDataDir(dir: string): Promise<() => Promise<void>> {
  fs.mkdirSync(dir, { recursive: true });
  const target = path.join(dir, "PG_LOCK_TARGET");
  fs.closeSync(fs.openSync(target, "a"));
  try {
    return await lockfile.lock(target, {
      // Generous: PGlite's WebAssembly work can block the event loop for seconds on a
      // busy machine, and a lock refreshed late must not look abandoned.
      stale: 30_000,
      update: 5_000,
      realpath: false,
      // Losing the lock (folder deleted, or the process stalled past `stale`)
      // means another process may now open the same files: stop rather than corrupt them.
      onCompromised: (err) => {
        console.error(`[print-studio] lost the lock on ${dir} (${err.message}); stopping to protect the embedded database.`);
        process.exit(1);
      },
    });
  } catch (err) {
    if ((err as { code?: string }).code === "ELOCKED") {
      throw new Error(
        `The embedded database in ${dir} is already in use by another process ` +
          `(npm run dev, npm start, a test, or the CLI). Stop that process first, ` +
          `or set DATABASE_URL to use PostgreSQL, which many processes can share. ` +
          `(A process that was killed leaves the lock behind for up to 30 seconds.)`,
      );
    }
    throw err;
  }
}
