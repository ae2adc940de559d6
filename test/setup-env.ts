// Runs before every test file (vitest setupFiles). Each file gets a private data
// folder and its own fresh database: PGlite in that folder by default, or a new
// PostgreSQL database when DATABASE_URL or TEST_DATABASE=postgres is set.
import os from "node:os";
import path from "node:path";
import fs from "node:fs";
import crypto from "node:crypto";
import { afterAll, inject } from "vitest";
import postgres from "postgres";
import { registerAppJobs } from "@/inngest/register";
import { dbOpened } from "@/lib/foundation/db/handle-holder";
import { postgresAdminUrl, postgresDatabaseUrl } from "./support/postgres-test-db";

// The app hands its job functions to lib/domain/jobs at start; so does every test file.
registerAppJobs();

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "print-studio-test-"));
process.env.DATA_DIR = dir;
process.env.AUTH_SECRET ??= "test-secret-test-secret-test-secret-0123456789";
process.env.APP_URL ??= "http://localhost:3000";
process.env.DEMO_ACCOUNT ??= "never";

const wantsPostgres = process.env.TEST_DATABASE === "postgres" || !!process.env.DATABASE_URL;
let dropDatabase: (() => Promise<void>) | undefined;

// PGlite: a copy of the migrated template made once per run (test/global-setup.ts), not a new initdb.
const template = wantsPostgres ? undefined : inject("pgliteTemplate");
if (template) fs.cpSync(template, path.join(dir, "pglite"), { recursive: true, mode: fs.constants.COPYFILE_FICLONE });

if (wantsPostgres) {
  const adminUrl = postgresAdminUrl();
  const name = `ps_test_${process.pid}_${crypto.randomBytes(4).toString("hex")}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  // A copy of the database migrated once per run (test/global-setup.ts), not every migration again.
  const postgresTemplate = inject("postgresTemplate");
  await admin.unsafe(postgresTemplate ? `create database ${name} template ${postgresTemplate}` : `create database ${name}`);
  process.env.DATABASE_URL = postgresDatabaseUrl(name, adminUrl);
  dropDatabase = async () => {
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  };
}

afterAll(async () => {
  // Only a file that opened its database has one to close; importing the client just to
  // find none cost each of the many files that never open one about 2 s.
  if (dbOpened()) {
    const { closeDb } = await import("@/lib/foundation/db/client");
    await closeDb();
  }
  await dropDatabase?.();
  fs.rmSync(dir, { recursive: true, force: true });
});
