import { config } from "@/lib/foundation/config";
import { openPglite, type DbHandle } from "./open-pglite";
import { openPostgres } from "./open-postgres";
import type { Db } from "./types";
import { holder } from "./handle-holder";

export type { Db } from "./types";
export type { DbHandle } from "./open-pglite";

/** The process-wide database, opened (and migrated) on first use. */
export function dbHandle(): Promise<DbHandle> {
  if (!holder.__printStudioDb) {
    const { DATABASE_URL, dataDir } = config();
    const opening = DATABASE_URL ? openPostgres(DATABASE_URL) : openPglite(dataDir);
    holder.__printStudioDb = opening;
    // A failed open must not be cached: the next call retries (e.g. after the lock frees).
    opening.catch(() => {
      if (holder.__printStudioDb === opening) holder.__printStudioDb = undefined;
    });
  }
  return holder.__printStudioDb;
}

export async function getDb(): Promise<Db> {
  return (await dbHandle()).db;
}

export async function closeDb(): Promise<void> {
  const opening = holder.__printStudioDb;
  holder.__printStudioDb = undefined;
  if (opening) await (await opening).close();
}
