import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as reminderRoute from "@/app/v1/parent/reminder-email/route";
import { getDb } from "@/lib/foundation/db/client";
import { galleries, galleryAccessCodes, galleryFavourites, galleryReminderEmails } from "@/lib/foundation/db/schema";
import { newId } from "@/lib/foundation/ids";
import { codeLookup, newAccessCode, sealCode } from "@/lib/services/galleries/access-codes";
import { sweepOnce } from "@/lib/composition/maintenance/sweeper";
import { call, testAccount } from "../http";
import { parentOf, sellingStudio } from "../support/orders-fixtures";
import { smtpServerForFile } from "../support/smtp-test-server";

// A parent whose address is not on the roster asks, in the gallery, to be reminded
// before it closes: the address is kept for that one reminder, sent through the
// mail outbox to a real SMTP server by the hourly sweep, then deleted.
const smtp = smtpServerForFile();
const DAY_MS = 86_400_000;

async function child(accountId: string, studio: { agencyId: string; jobId: string }) {
  const parent = await parentOf(accountId, studio.agencyId, studio.jobId);
  const code = newAccessCode();
  const db = await getDb();
  await db.insert(galleryAccessCodes).values({ id: newId("gac"), accountId, jobId: Number(studio.jobId), subjectId: parent.subjectId, lookup: codeLookup(code), sealed: sealCode(code) });
  return { ...parent, code };
}

const remind = (token: string, body: unknown) => call(reminderRoute, "PUT", "/v1/parent/reminder-email", { token, body });

describe("an address given in the gallery for the closing reminder", () => {
  it("is checked, capped at 3 per child, used once by the sweep, and deleted; another child's is its own; a closed gallery's is forgotten", async () => {
    const owner = await testAccount();
    const studio = await sellingStudio(owner.token);
    const ada = await child(owner.account.id, studio);
    const bo = await child(owner.account.id, studio);
    const db = await getDb();
    const closesAt = new Date(Date.now() + 2 * DAY_MS);
    await db.update(galleries).set({ expiresAt: closesAt }).where(eq(galleries.id, ada.galleryId));

    for (const [body, field] of [[{}, "email"], [{ email: "not-an-address" }, "email"], [{ email: 7 }, "email"], [{ email: "a@example.com", extra: 1 }, "extra"]] as const) {
      const bad = await remind(ada.token, body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(bad.json.details), JSON.stringify(body)).toContain(field);
    }
    expect((await call(reminderRoute, "PUT", "/v1/parent/reminder-email", { body: { email: "a@example.com" } })).status).toBe(401);

    const first = await remind(ada.token, { email: " Mum@Example.com " });
    expect(first.status, first.text).toBe(200);
    // The default reminder_days (3) is further than the closing date: the reminder goes at the next sweep.
    expect(first.json).toEqual({ email: "mum@example.com", closes_at: closesAt.toISOString(), remind_at: expect.any(String) });
    expect((await remind(ada.token, { email: "mum@example.com" })).status).toBe(200); // repeating is harmless
    expect((await remind(ada.token, { email: "dad@example.com" })).status).toBe(200);
    expect((await remind(ada.token, { email: "gran@example.com" })).status).toBe(200);
    const fourth = await remind(ada.token, { email: "spam@example.com" });
    expect([fourth.status, fourth.json.error, fourth.json.details.field]).toEqual([409, "TOO_MANY_REMINDER_EMAILS", "email"]);
    const bos = await remind(bo.token, { email: "bo.parent@example.com" });
    expect([bos.status, bos.json.closes_at, bos.json.remind_at]).toEqual([200, null, null]);
    const rows = (who: string) => db.select().from(galleryReminderEmails).where(and(eq(galleryReminderEmails.subjectId, who)));
    expect((await rows(ada.subjectId)).map((r) => r.email).sort()).toEqual(["dad@example.com", "gran@example.com", "mum@example.com"]);
    expect((await rows(bo.subjectId)).map((r) => r.email)).toEqual(["bo.parent@example.com"]);

    // No favourites yet: nobody is reminded.
    expect((await sweepOnce(db)).galleryReminders).toBe(0);
    // A favourite (written directly: parentOf's photos have no rendered preview for the favourites route).
    await db.insert(galleryFavourites).values({ subjectId: ada.subjectId, photoId: ada.photoIds[0]!, accountId: owner.account.id });
    expect((await sweepOnce(db)).galleryReminders).toBe(3);
    for (const to of ["mum@example.com", "dad@example.com", "gran@example.com"]) {
      const mail = await smtp().waitFor(to, /gallery of Ada Park closes/);
      expect(mail.links.some((l) => new URL(l).searchParams.get("code") === ada.code)).toBe(true);
    }
    expect(await rows(ada.subjectId)).toHaveLength(0);
    expect((await sweepOnce(db)).galleryReminders).toBe(0);
    expect(smtp().to("mum@example.com", /closes/)).toHaveLength(1);
    // Already reminded: a new address is taken, and the answer says no reminder is due.
    expect((await remind(ada.token, { email: "late@example.com" })).json.remind_at).toBeNull();

    // Bo's gallery closes without a reminder: the sweep forgets the address.
    await db.update(galleries).set({ status: "closed", closedAt: new Date() }).where(eq(galleries.id, bo.galleryId));
    const swept = await sweepOnce(db);
    expect(swept.reminderEmailsForgotten).toBe(1);
    expect(await rows(bo.subjectId)).toHaveLength(0);
    expect(smtp().to("bo.parent@example.com", /closes/)).toHaveLength(0);
  });
});
