import postgres from "postgres";
import { config } from "@/lib/foundation/config";
import { drizzle } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import { migrationsFolder } from "./migrate";
import * as schema from "./schema";
import type { Db } from "./types";
import type { DbHandle } from "./open-pglite";

/** Any number for the advisory lock; only our migrations use it. */
const MIGRATION_LOCK_ID = 727_001;

/** PostgreSQL through postgres.js when DATABASE_URL is set. */
export async function openPostgres(url: string): Promise<DbHandle> {
  const client = postgres(url, { max: config().DATABASE_POOL_SIZE, onnotice: () => {} });
  // Several instances may start at once: one applies migrations, the others
  // wait on the advisory lock. A one-connection client keeps the lock and the
  // migration on the same session.
  const single = postgres(url, { max: 1, onnotice: () => {} });
  let isFresh = false;
  try {
    await single`select pg_advisory_lock(${MIGRATION_LOCK_ID})`;
    const [row] = await single<{ n: number }[]>`
      select count(*)::int as n from information_schema.tables
      where table_schema = current_schema() and table_name = 'accounts'`;
    isFresh = row?.n === 0;
    await migrate(drizzle(single), { migrationsFolder });
    await single`select pg_advisory_unlock(${MIGRATION_LOCK_ID})`;
  } finally {
    await single.end({ timeout: 5 });
  }
  const db = drizzle(client, { schema }) as unknown as Db;
  return { db, driver: "postgres", isFresh, close: () => client.end({ timeout: 5 }) };
}
