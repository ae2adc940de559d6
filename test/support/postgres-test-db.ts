// Where the PostgreSQL test runs make their databases: the server DATABASE_URL names (or
// the machine's local one under TEST_DATABASE=postgres), one database per test file, each
// created from one migrated template (test/global-setup.ts, test/setup-env.ts).

/** The URL the run was started with; its database is only used to create and drop others. */
export function postgresAdminUrl(): string {
  return process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
}

/** The same server, another database. */
export function postgresDatabaseUrl(name: string, adminUrl = postgresAdminUrl()): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
