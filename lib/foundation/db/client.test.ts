import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { dbHandle, getDb } from "./client";
import { lockDataDir } from "./data-dir-lock";
import { config } from "@/lib/foundation/config";

describe("database client", () => {
  it("opens, migrates and answers queries", async () => {
    const db = await getDb();
    const rows = await db.execute(sql`select count(*)::int as n from accounts`);
    const list = (Array.isArray(rows) ? rows : (rows as { rows: unknown[] }).rows) as { n: number }[];
    expect(list[0]?.n).toBe(0);
  });

  it("returns one handle per process", async () => {
    expect(await dbHandle()).toBe(await dbHandle());
  });

  it.runIf(!process.env.DATABASE_URL)("refuses a second holder of the embedded data folder with a clear message", async () => {
    await getDb();
    await expect(lockDataDir(config().dataDir, 1_000)).rejects.toThrow(/already in use by another process/);
  });
});
