// Runs once before the whole run (vitest globalSetup). Creating an embedded
// database (PGlite's initdb) and applying every migration costs each test file
// seconds (about 19 s a file on a busy 2-core machine, against 2 s for a copy):
// done once here, into a template folder that test/setup-env.ts copies for each
// file. On PostgreSQL the same: one migrated template database, which each file's
// `create database ... template` copies (about 60 ms, against about 500 ms for the
// migrations on a quiet machine). Every file still gets its own fresh, fully migrated
// database, made by the same migrator the app runs; the app's open still runs its
// (then empty) migration.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import postgres from "postgres";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import type { TestProject } from "vitest/node";
import { migrationsFolder } from "../lib/foundation/db/migrate";
import { postgresAdminUrl, postgresDatabaseUrl } from "./support/postgres-test-db";

declare module "vitest" {
  export interface ProvidedContext {
    /** A migrated PGlite data folder to copy (unset on PostgreSQL runs). */
    pgliteTemplate: string | undefined;
    /** A migrated PostgreSQL database to create each file's database from (unset on PGlite runs). */
    postgresTemplate: string | undefined;
  }
}

export default async function setup(project: TestProject) {
  if (process.env.TEST_DATABASE === "postgres" || process.env.DATABASE_URL) {
    project.provide("pgliteTemplate", undefined);
    return setupPostgresTemplate(project);
  }
  project.provide("postgresTemplate", undefined);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "print-studio-template-"));
  const dataDir = path.join(dir, "pglite");
  const client = await PGlite.create({ dataDir });
  await migrate(drizzle(client), { migrationsFolder });
  await client.close();
  project.provide("pgliteTemplate", dataDir);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}

async function setupPostgresTemplate(project: TestProject) {
  const name = `ps_template_${process.pid}_${crypto.randomBytes(4).toString("hex")}`;
  const admin = postgres(postgresAdminUrl(), { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  // The migrating connection is closed before any file copies the template: PostgreSQL
  // refuses to copy a database someone is connected to.
  const client = postgres(postgresDatabaseUrl(name), { max: 1, onnotice: () => {} });
  try {
    await migratePostgres(drizzlePostgres(client), { migrationsFolder });
  } finally {
    await client.end();
  }
  project.provide("postgresTemplate", name);
  return async () => {
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  };
}
