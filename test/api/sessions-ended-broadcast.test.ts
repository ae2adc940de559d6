// A password changed through another instance ends this instance's sessions on the
// very next request, although this process caches account rows (principal-cache):
// the change is broadcast on the API-key revocation feed as "account:<id>" and
// acknowledged before it is answered (lib/domain/identity/end-sessions.ts). PostgreSQL only:
// PGlite is one process, where forgetting the row locally is the whole broadcast.
import { afterAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import * as accountRoute from "@/app/v1/account/route";
import { ApiKeyCache, postgresFeed, processKeyCache, resetProcessKeyCache, SESSIONS_ENDED_PREFIX } from "@/lib/domain/identity/key-cache";
import { bumpCredentialsVersion } from "@/lib/domain/identity/end-sessions";
import { openPostgres } from "@/lib/foundation/db/open-postgres";
import type { DbHandle } from "@/lib/foundation/db/client";
import { call, testAccount } from "../http";

const PG_URL = process.env.DATABASE_URL;
const opened: DbHandle[] = [];
const caches: ApiKeyCache[] = [];
afterAll(async () => {
  await Promise.all(caches.map((c) => c.stop()));
  await resetProcessKeyCache();
  await Promise.all(opened.map((h) => h.close()));
});

async function untilLive(cache: ApiKeyCache) {
  await cache.start();
  const end = Date.now() + 10_000;
  while (!cache.isLive) {
    if (Date.now() > end) throw new Error("feed never went live");
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe.runIf(PG_URL)("sessions ended on another instance", () => {
  it("refuses this instance's cached access token on the next request", async () => {
    const { account, token } = await testAccount();
    await untilLive(processKeyCache());
    // This instance serves the token: the account row is now cached here.
    expect((await call(accountRoute, "GET", "/v1/account", { token })).status).toBe(200);

    // The other instance: its own connection and its own feed, changing the credentials there.
    const other = await openPostgres(PG_URL!);
    opened.push(other);
    const otherCache = new ApiKeyCache(postgresFeed(PG_URL!));
    caches.push(otherCache);
    await untilLive(otherCache);
    await other.db.transaction((tx) => bumpCredentialsVersion(tx, account.id).then(() => undefined));
    await otherCache.revoked(SESSIONS_ENDED_PREFIX + account.id);

    const res = await call(accountRoute, "GET", "/v1/account", { token });
    expect(res.status).toBe(401);
    const [row] = (await other.db.execute(sql`select credentials_version from accounts where id = ${account.id}`)) as unknown as { credentials_version: number }[];
    expect(row?.credentials_version).toBe(1);
  });
});
