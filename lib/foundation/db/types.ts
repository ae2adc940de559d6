import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type * as schema from "./schema";

/**
 * The database or a transaction: both drivers (PGlite, postgres.js) satisfy it.
 * Queries take this as their first argument so callers decide the transaction.
 * With PGlite (one connection) always pass the transaction down: using the outer
 * handle inside a transaction waits forever.
 */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
