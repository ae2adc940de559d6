// Runs once before the whole run (vitest globalSetup). Creating an embedded
// database (PGlite's initdb) and applying every migration costs each test file
// seconds (about 19 s a file on a busy 2-core machine, against 2 s for a copy):
// done once here, into a template folder that test/setup-env.ts copies for each
// file. Every file still gets its own fresh, fully migrated database, made by the
// same migrator the app runs; the app's open still runs its (then empty) migration.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import type { TestProject } from "vitest/node";
import { migrationsFolder } from "../lib/foundation/db/migrate";

declare module "vitest" {
  export interface ProvidedContext {
    /** A migrated PGlite data folder to copy (unset on PostgreSQL runs). */
    pgliteTemplate: string | undefined;
  }
}

export default async function setup(project: TestProject) {
  if (process.env.TEST_DATABASE === "postgres" || process.env.DATABASE_URL) {
    project.provide("pgliteTemplate", undefined);
    return;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "print-studio-template-"));
  const dataDir = path.join(dir, "pglite");
  const client = await PGlite.create({ dataDir });
  await migrate(drizzle(client), { migrationsFolder });
  await client.close();
  project.provide("pgliteTemplate", dataDir);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
