import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { config, resetConfig } from "@/lib/foundation/config";
import { getDb } from "@/lib/foundation/db/client";
import { verifyCredentials } from "@/lib/domain/identity/verify-credentials";
import { DEMO_EMAIL } from "@/lib/services/sign-in/ensure-demo-account";
import { ensureDemoStudio as ensureDemoAccount } from "./ensure-demo-studio";
import { getBalance } from "@/lib/domain/wallet/get-balance";
import { eq } from "drizzle-orm";
import { agencies, agencyJobs, jobFiles, referenceBuilds, subjects } from "@/lib/foundation/db/schema";
import { storage } from "@/lib/domain/storage";

function demoMode(mode: string) {
  process.env.DEMO_ACCOUNT = mode;
  resetConfig();
}

afterEach(() => demoMode("never"));

describe("demo account", () => {
  it.runIf(!process.env.DATABASE_URL)("is created on an empty embedded database, signs in, and is printed again on later starts", async () => {
    demoMode("auto");
    const db = await getDb();
    const first = await ensureDemoAccount(db);
    expect(first?.email).toBe(DEMO_EMAIL);
    const account = await verifyCredentials(db, first!.email, first!.password);
    expect(account?.plan).toBe("premium");
    // Its address is confirmed (nobody can follow a link to demo@printstudio.local); its tokens came with that.
    expect(account?.emailVerifiedAt).toBeInstanceOf(Date);
    expect(await getBalance(db, account!.id)).toBe(5000);
    expect(fs.existsSync(path.join(config().dataDir, "demo-account.json"))).toBe(true);
    // A sample agency for face matching: a roster with portraits, a job of event photos, references queued.
    const [agency] = await db.select().from(agencies).where(eq(agencies.accountId, account!.id));
    expect(agency?.name).toMatch(/^Demo/);
    const roster = await db.select().from(subjects).where(eq(subjects.agencyId, agency!.id));
    expect(roster.map((s) => s.studentId).sort()).toEqual(["D-1001", "D-1002"]);
    for (const s of roster) expect(await storage().get(s.referencePhotoKey!)).not.toBeNull();
    const [job] = await db.select().from(agencyJobs).where(eq(agencyJobs.agencyId, agency!.id));
    expect(await db.select().from(jobFiles).where(eq(jobFiles.jobId, job!.id))).toHaveLength(6);
    expect(await db.select().from(referenceBuilds).where(eq(referenceBuilds.agencyId, agency!.id))).toMatchObject([{ status: "queued", subjectsTotal: 2 }]);
    // A later start finds accounts and reprints the same credentials without creating another.
    expect(await ensureDemoAccount(db)).toEqual(first);
  });

  it("is never created when DEMO_ACCOUNT=never", async () => {
    demoMode("never");
    expect(await ensureDemoAccount(await getDb())).toBeNull();
  });

  it.runIf(!!process.env.DATABASE_URL)("is not created on PostgreSQL unless asked", async () => {
    demoMode("auto");
    expect(await ensureDemoAccount(await getDb())).toBeNull();
    demoMode("always");
    expect((await ensureDemoAccount(await getDb()))?.email).toBe(DEMO_EMAIL);
  });
});
