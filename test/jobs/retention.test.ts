import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as generate from "@/app/v1/services/studio/qr/generate/route";
import { getDb } from "@/lib/foundation/db/client";
import { accountTokens, jobRuns, jobSteps, qrGenerations } from "@/lib/foundation/db/schema";
import { createAccountToken } from "@/lib/domain/identity/one-time-tokens";
import { sweepOnce } from "@/lib/composition/maintenance/sweeper";
import { storage } from "@/lib/domain/storage";
import { call, testAccount } from "../http";
import { enqueue } from "./runner-harness";
import { shutdownJob } from "./shutdown-job";

const DAY = 24 * 3600_000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY);

describe("retention sweep", () => {
  it("deletes finished job runs (and their steps) 14 days after they end, never queued or running ones", async () => {
    const db = await getDb();
    const [oldDone, oldFailed, recentDone, oldQueued, oldRunning] = await Promise.all([1, 2, 3, 4, 5].map((n) => enqueue([shutdownJob], { n })));
    const set = (id: string, v: Partial<typeof jobRuns.$inferInsert>) => db.update(jobRuns).set(v).where(eq(jobRuns.id, id));
    await set(oldDone!, { status: "completed", finishedAt: daysAgo(15) });
    await set(oldFailed!, { status: "failed", finishedAt: daysAgo(30) });
    await set(recentDone!, { status: "completed", finishedAt: daysAgo(13) });
    await set(oldQueued!, { createdAt: daysAgo(40) });
    await set(oldRunning!, { status: "running", createdAt: daysAgo(40) });
    await db.insert(jobSteps).values([
      { runId: oldDone!, stepId: "work", output: { data: 1 } },
      { runId: recentDone!, stepId: "work", output: { data: 3 } },
    ]);

    expect(await sweepOnce(db)).toEqual({ jobRuns: 2, qrPdfs: 0, faceCropTasks: 0, idempotencyKeys: 0, faceEmbeddings: 0, webhookDeliveries: 0, webhookRequeued: 0, unreviewedFixJobs: 0, accountTokens: 0, mailMessages: 0, mailRequeued: 0, galleryReminders: 0, reminderEmailsForgotten: 0, orderPhotos: 0 });
    const left = await db.select({ id: jobRuns.id }).from(jobRuns).where(inArray(jobRuns.id, [oldDone!, oldFailed!, recentDone!, oldQueued!, oldRunning!]));
    expect(left.map((r) => r.id).sort()).toEqual([recentDone!, oldQueued!, oldRunning!].sort());
    expect((await db.select().from(jobSteps)).map((s) => s.runId)).toEqual([recentDone]);
    expect(await sweepOnce(db)).toEqual({ jobRuns: 0, qrPdfs: 0, faceCropTasks: 0, idempotencyKeys: 0, faceEmbeddings: 0, webhookDeliveries: 0, webhookRequeued: 0, unreviewedFixJobs: 0, accountTokens: 0, mailMessages: 0, mailRequeued: 0, galleryReminders: 0, reminderEmailsForgotten: 0, orderPhotos: 0 }); // idempotent
  });

  it("deletes a Bulk QR PDF an hour after its download URL expired, keeping the billed record", async () => {
    const { token } = await testAccount({ tokens: 50, plan: "premium" });
    const make = async (jobId: string) => {
      const res = await call(generate, "POST", "/v1/services/studio/qr/generate", { token, body: { job_id: jobId, school_name: "Lincoln", subjects: [{ student_id: "S1", name: "Ada" }] } });
      expect(res.status).toBe(200);
      return res.json.id as string;
    };
    const old = await make("OLD");
    const fresh = await make("FRESH");
    const db = await getDb();
    const row = async (id: string) => (await db.select().from(qrGenerations).where(eq(qrGenerations.id, id)))[0]!;
    const oldKey = (await row(old)).storageKey!;
    await db.update(qrGenerations).set({ completedAt: new Date(Date.now() - DAY - 2 * 3600_000) }).where(eq(qrGenerations.id, old));
    // 23 hours in: still inside the URL's 24 hours plus the hour's margin.
    await db.update(qrGenerations).set({ completedAt: new Date(Date.now() - 23 * 3600_000) }).where(eq(qrGenerations.id, fresh));

    expect(await sweepOnce(db)).toEqual({ jobRuns: 0, qrPdfs: 1, faceCropTasks: 0, idempotencyKeys: 0, faceEmbeddings: 0, webhookDeliveries: 0, webhookRequeued: 0, unreviewedFixJobs: 0, accountTokens: 0, mailMessages: 0, mailRequeued: 0, galleryReminders: 0, reminderEmailsForgotten: 0, orderPhotos: 0 });
    expect(await storage().get(oldKey)).toBeNull();
    expect(await row(old)).toMatchObject({ status: "completed", storageKey: null, walletTransactionId: expect.any(String) });
    const freshRow = await row(fresh);
    expect(freshRow.storageKey).not.toBeNull();
    expect(await storage().get(freshRow.storageKey!)).not.toBeNull();
  });

  it("deletes emailed links a day after they expired, used or not, and keeps live ones", async () => {
    const db = await getDb();
    const { account } = await testAccount();
    for (let i = 0; i < 3; i++) await createAccountToken(db, { accountId: account.id, purpose: "password_reset", email: account.email });
    const rows = await db.select().from(accountTokens).where(eq(accountTokens.accountId, account.id));
    await db.update(accountTokens).set({ expiresAt: daysAgo(2) }).where(eq(accountTokens.id, rows[0]!.id));
    await db.update(accountTokens).set({ expiresAt: daysAgo(2), usedAt: daysAgo(3) }).where(eq(accountTokens.id, rows[1]!.id));
    expect((await sweepOnce(db)).accountTokens).toBe(2);
    expect((await db.select().from(accountTokens).where(eq(accountTokens.accountId, account.id))).map((r) => r.id)).toEqual([rows[2]!.id]);
  });
});
