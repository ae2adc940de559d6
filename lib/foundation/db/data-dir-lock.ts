import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import lockfile from "proper-lockfile";

/** The lock counts as abandoned once its holder stops refreshing it for this long. */
const STALE_MS = 30_000;

type Owner = { pid: number; host: string };

/**
 * PGlite has no lock of its own: two processes on one data folder corrupt it.
 * proper-lockfile keeps a lock directory fresh while we live and treats it as
 * stale (takeable) once its owner has stopped refreshing it for STALE_MS.
 *
 * `waitMs` (DATA_DIR_LOCK_WAIT_MS) is how long a live holder is waited for.
 *
 * A start right after a crash (kill -9, OOM) finds the dead process's lock still
 * fresh. We record the holder's pid and host beside the lock: when the holder is
 * on this host and no longer exists, its lock is removed at once; a live holder
 * (or one on another host sharing the folder) is waited for until its lock goes
 * stale, and only then is the start refused. (Two starts racing each other right
 * after a crash have a window of microseconds between one's lock and its owner
 * record; one process per data folder is the documented rule.)
 */
export async function lockDataDir(dir: string, waitMs: number): Promise<() => Promise<void>> {
  fs.mkdirSync(dir, { recursive: true });
  const target = path.join(dir, "PG_LOCK_TARGET");
  const ownerFile = path.join(dir, "PG_LOCK_OWNER");
  fs.closeSync(fs.openSync(target, "a"));
  const until = Date.now() + waitMs;
  for (;;) {
    try {
      const release = await lockfile.lock(target, {
        // Generous: PGlite's WebAssembly work can block the event loop for seconds on a
        // busy machine, and a lock refreshed late must not look abandoned.
        stale: STALE_MS,
        update: 5_000,
        realpath: false,
        // Losing the lock (folder deleted, or the process stalled past `stale`)
        // means another process may now open the same files: stop rather than corrupt them.
        onCompromised: (err) => {
          console.error(`[print-studio] lost the lock on ${dir} (${err.message}); stopping to protect the embedded database.`);
          process.exit(1);
        },
      });
      fs.writeFileSync(ownerFile, JSON.stringify({ pid: process.pid, host: os.hostname() } satisfies Owner));
      return release;
    } catch (err) {
      if ((err as { code?: string }).code !== "ELOCKED") throw err;
      if (holderIsGone(ownerFile)) {
        console.warn(`[print-studio] ${dir} was locked by a process that no longer runs; taking the lock over.`);
        fs.rmSync(`${target}.lock`, { recursive: true, force: true });
        continue;
      }
      if (Date.now() >= until) {
        throw new Error(
          `The embedded database in ${dir} is already in use by another process ` +
            `(npm run dev, npm start, a test, or the CLI). Stop that process first, ` +
            `or set DATABASE_URL to use PostgreSQL, which many processes can share.`,
        );
      }
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

/** True when the recorded holder was a process on this host that has exited. */
function holderIsGone(ownerFile: string): boolean {
  let owner: Owner;
  try {
    owner = JSON.parse(fs.readFileSync(ownerFile, "utf8")) as Owner;
  } catch {
    return false; // no record (a holder mid-start): wait for it or its staleness
  }
  if (owner.host !== os.hostname() || owner.pid === process.pid) return false;
  try {
    process.kill(owner.pid, 0);
    return false; // alive (or alive under another user)
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ESRCH";
  }
}
