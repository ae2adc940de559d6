import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { config } from "@/lib/foundation/config";
import { lockDataDir } from "./data-dir-lock";
import { migrationsFolder } from "./migrate";
import * as schema from "./schema";
import type { Db } from "./types";

export type DbHandle = { db: Db; driver: "pglite" | "postgres"; close: () => Promise<void>; isFresh: boolean };

/** The embedded default: PostgreSQL compiled to WebAssembly, data in DATA_DIR/pglite. */
export async function openPglite(dataDir: string): Promise<DbHandle> {
  const dir = path.join(dataDir, "pglite");
  const unlock = await lockDataDir(dataDir, config().DATA_DIR_LOCK_WAIT_MS);
  try {
    const client = await PGlite.create({ dataDir: dir });
    const db = drizzle(client, { schema }) as unknown as Db;
    const before = await client.query<{ n: number }>(
      "select count(*)::int as n from information_schema.tables where table_name = 'accounts'",
    );
    await migrate(drizzle(client), { migrationsFolder });
    return {
      db,
      driver: "pglite",
      isFresh: before.rows[0]?.n === 0,
      close: async () => {
        await client.close();
        await unlock();
      },
    };
  } catch (err) {
    await unlock();
    throw err;
  }
}
