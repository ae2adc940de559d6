import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as subjectRoute from "@/app/v1/services/studio/agencies/[agencyId]/subjects/[subjectId]/route";
import * as sendCodesRoute from "@/app/v1/services/studio/agencies/[agencyId]/jobs/[jobId]/galleries/send-codes/route";
import * as closeRoute from "@/app/v1/services/studio/agencies/[agencyId]/jobs/[jobId]/galleries/close/route";
import * as galleriesRoute from "@/app/v1/services/studio/agencies/[agencyId]/jobs/[jobId]/galleries/route";
import * as reopenRoute from "@/app/v1/services/studio/agencies/[agencyId]/jobs/[jobId]/galleries/reopen/route";
import { getDb } from "@/lib/foundation/db/client";
import { resetConfig } from "@/lib/foundation/config";
import { galleries, mailMessages, orders } from "@/lib/foundation/db/schema";
import * as parentGalleriesRoute from "@/app/v1/parent/galleries/route";
import * as photosRoute from "@/app/v1/parent/galleries/[galleryId]/photos/route";
import * as favouriteRoute from "@/app/v1/parent/favourites/[photoId]/route";
import * as settingsRoute from "@/app/v1/services/studio/gallery-settings/route";
import { sweepOnce } from "@/lib/composition/maintenance/sweeper";
import { newId } from "@/lib/foundation/ids";
import { shutDownCardReader } from "@/lib/engines/imaging/card-reader/read-cards";
import { call, testAccount } from "../http";
import { startTestRunner, stopAll } from "../jobs/bg-remove-harness";
import { sortedPictureDay, type SortedJob } from "../support/sorted-job";
import { enterCode, galleriesPath, listGalleries, publishGalleries, waitForPreviews } from "../support/galleries";
import { smtpServerForFile } from "../support/smtp-test-server";

// Parents on the roster get their child's gallery code by e-mail: through a real
// QR-sorted picture day, the publish and send-codes routes, the mail outbox, and a
// real SMTP server that receives the messages.
const smtp = smtpServerForFile();
beforeAll(() => startTestRunner());
afterAll(async () => {
  await stopAll();
  await shutDownCardReader();
});

const ANN = "ann.parent@example.com";
const BEN = "ben.parent@example.com";
const CAT = "cat.parent@example.com";
let owner: Awaited<ReturnType<typeof testAccount>>;
let job: SortedJob;

async function setParentEmail(studentId: "S1" | "S2" | "S3", email: string | null) {
  const subjectId = job.subjects[studentId];
  const res = await call(subjectRoute, "PATCH", `/v1/services/studio/agencies/${job.agencyId}/subjects/${subjectId}`, { token: owner.token, params: { agencyId: String(job.agencyId), subjectId }, body: { parent_email: email } });
  expect(res.status, res.text).toBe(200);
}

function sendCodes(body: Record<string, unknown>, headers: Record<string, string> = {}, token = owner.token) {
  const { url, params } = galleriesPath(job.agencyId, job.jobId);
  return call(sendCodesRoute, "POST", `${url}/send-codes`, { token, params, body, headers });
}

async function outboxTo(to: string) {
  const db = await getDb();
  return db.select().from(mailMessages).where(and(eq(mailMessages.to, to), eq(mailMessages.accountId, owner.account.id)));
}

describe("gallery codes e-mailed to parents", () => {
  it("publishing e-mails each parent on the roster the child's code and the /g?code= link, once; a draft mails nobody", async () => {
    owner = await testAccount({ tokens: 10 });
    job = await sortedPictureDay(owner.token, "Mail School");
    await setParentEmail("S1", ANN);
    await setParentEmail("S2", BEN);

    const draft = await publishGalleries(owner.token, job.agencyId, job.jobId, { draft: true });
    expect(draft.status, draft.text).toBe(200);
    expect(draft.json.codes_emailed).toBe(0);
    expect(await outboxTo(ANN)).toHaveLength(0);

    const res = await publishGalleries(owner.token, job.agencyId, job.jobId);
    expect(res.status, res.text).toBe(200);
    expect(res.json.codes_emailed).toBe(2);
    const list = await listGalleries(owner.token, job.agencyId, job.jobId);
    const ann = list.find((g) => g.student_id === "S1")!;
    const mail = await smtp().waitFor(ANN, /photos of Ann Archer/);
    expect(mail.text).toContain(ann.access_code!);
    const link = mail.links.find((l) => l.includes("/g?code="))!;
    expect(new URL(link).searchParams.get("code")).toBe(ann.access_code);
    // The code in the mail opens Ann's gallery (and the job's group gallery, if any).
    const opened = await enterCode(new URL(link).searchParams.get("code")!);
    expect(opened.status, opened.text).toBe(200);
    expect(opened.json.galleries.map((g: { title: string }) => g.title)).toContain("Ann Archer");
    await smtp().waitFor(BEN, /photos of Ben Brook/);

    // The job page's sent / not sent per child.
    const { url, params } = galleriesPath(job.agencyId, job.jobId);
    const rows = (await call(galleriesRoute, "GET", `${url}?limit=100`, { token: owner.token, params })).json.data;
    const byStudent = Object.fromEntries(rows.filter((g: any) => g.kind === "subject").map((g: any) => [g.student_id, [g.parent_email, g.code_emailed_to, g.code_emails, g.code_emailed_at !== null]]));
    expect(byStudent).toEqual({ S1: [ANN, ANN, 1, true], S2: [BEN, BEN, 1, true], S3: [null, null, 0, false] });

    // Publishing again (more sorting, a retried request) mails nobody twice.
    const again = await publishGalleries(owner.token, job.agencyId, job.jobId);
    expect(again.json.codes_emailed).toBe(0);
    expect(await outboxTo(ANN)).toHaveLength(1);
    expect(smtp().to(ANN)).toHaveLength(1);
  }, 300_000);

  it("Send codes mails only codes never mailed, says who has no address, and re-sends on purpose once per request", async () => {
    const first = await sendCodes({});
    expect(first.status, first.text).toBe(200);
    expect(first.json).toEqual({ job_id: job.jobId, emailed: 0, already_sent: 2, without_email: 1, not_open: 0 });

    await setParentEmail("S3", CAT);
    const cat = await sendCodes({});
    expect(cat.json).toMatchObject({ emailed: 1, already_sent: 2, without_email: 0 });
    await smtp().waitFor(CAT, /photos of Cat Crane/);

    // A re-send on purpose, for one child; the same request retried (its Idempotency-Key) sends nothing more.
    const key = { "idempotency-key": "resend-ann-1" };
    const resent = await sendCodes({ resend: true, subject_ids: [job.subjects.S1] }, key);
    expect(resent.json).toMatchObject({ emailed: 1, already_sent: 0 });
    const retried = await sendCodes({ resend: true, subject_ids: [job.subjects.S1] }, key);
    expect(retried.status).toBe(200);
    expect(await outboxTo(ANN)).toHaveLength(2);
    expect(await outboxTo(BEN)).toHaveLength(1);
    const annRow = (await listGalleries(owner.token, job.agencyId, job.jobId)).find((g) => g.student_id === "S1") as unknown as { code_emails: number };
    expect(annRow.code_emails).toBe(2);
  });

  it("with the mail server away, Send codes still answers, and the messages wait in the outbox for the mail job", async () => {
    const up = process.env.SMTP_URL!;
    process.env.SMTP_URL = "smtp://127.0.0.1:1"; // nothing listens there: refused
    resetConfig();
    try {
      const res = await sendCodes({ resend: true, subject_ids: [job.subjects.S2] });
      expect(res.status, res.text).toBe(200);
      expect(res.json).toMatchObject({ emailed: 1 });
      const rows = await outboxTo(BEN);
      expect(rows.map((r) => r.status).sort()).toEqual(["pending", "sent"]);
    } finally {
      process.env.SMTP_URL = up;
      resetConfig();
    }
  });

  it("mails nobody for closed galleries, and refuses unknown children and bad input naming the field", async () => {
    const { params } = galleriesPath(job.agencyId, job.jobId);
    expect((await call(closeRoute, "POST", `${galleriesPath(job.agencyId, job.jobId).url}/close`, { token: owner.token, params })).status).toBe(200);
    const closed = await sendCodes({ resend: true });
    expect(closed.json).toMatchObject({ emailed: 0, not_open: 3 });

    const unknown = await sendCodes({ subject_ids: ["sub_nobody"] });
    expect(unknown.status).toBe(400);
    expect(unknown.json).toMatchObject({ error: "SUBJECT_NOT_IN_JOB", details: { field: "subject_ids" } });
    for (const [body, field] of [
      [{ resend: "yes" }, "resend"],
      [{ subject_ids: [] }, "subject_ids"],
      [{ everyone: true }, "everyone"],
    ] as const) {
      const res = await sendCodes(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(res.json.details)).toContain(field);
    }
    expect((await call(reopenRoute, "POST", `${galleriesPath(job.agencyId, job.jobId).url}/reopen`, { token: owner.token, params, body: {} })).status).toBe(200);
  });

  it("another studio's job is a 404", async () => {
    const other = await testAccount();
    const res = await sendCodes({}, {}, other.token);
    expect(res.status).toBe(404);
  });
});

const DAY_MS = 86_400_000;

/** A parent with the child's code marks the first photo of the child's own gallery. */
async function favouriteFirstPhoto(studentId: "S1" | "S2" | "S3") {
  const code = (await listGalleries(owner.token, job.agencyId, job.jobId)).find((g) => g.student_id === studentId)!.access_code!;
  const token = (await enterCode(code)).json.token;
  const own = (await call(parentGalleriesRoute, "GET", "/v1/parent/galleries", { token })).json.data.find((g: { kind: string }) => g.kind === "subject");
  const [photo] = (await call(photosRoute, "GET", `/v1/parent/galleries/${own.id}/photos`, { token, params: { galleryId: own.id } })).json.data;
  expect((await call(favouriteRoute, "PUT", `/v1/parent/favourites/${photo.id}`, { token, params: { photoId: photo.id } })).status).toBe(200);
  return code;
}

/** The clock shift: the job's galleries now close `days` from now. */
async function closeIn(days: number) {
  const db = await getDb();
  await db.update(galleries).set({ expiresAt: new Date(Date.now() + days * DAY_MS) }).where(eq(galleries.jobId, job.jobId));
}

describe("the reminder before a gallery closes", () => {
  it("reminds, reminder_days before closing, once per gallery, the parents with favourites and no paid order", async () => {
    await waitForPreviews(owner.token, job.agencyId, job.jobId);
    const annCode = await favouriteFirstPhoto("S1");
    await favouriteFirstPhoto("S2");
    // Ben's parents have paid for an order from this job (as the verified Stripe webhook leaves it).
    const db = await getDb();
    await db.insert(orders).values({
      id: newId("ord"),
      accountId: owner.account.id,
      jobId: job.jobId,
      subjectId: job.subjects.S2,
      email: BEN,
      status: "paid",
      currency: "usd",
      subtotal: 1000,
      total: 1000,
      shipping: { option_id: "school", type: "school", name: "To school" },
      stripeAccountId: "acct_test",
      paidAt: new Date(),
    });

    // Weeks from closing (the reopen's default expiry): nobody yet.
    expect((await sweepOnce(db)).galleryReminders).toBe(0);
    await closeIn(2.5);
    expect((await sweepOnce(db)).galleryReminders).toBe(1);
    const reminder = await smtp().waitFor(ANN, /gallery of Ann Archer closes/);
    expect(reminder.text).toContain("1 favourite");
    expect(reminder.links.some((l) => new URL(l).searchParams.get("code") === annCode)).toBe(true);
    // Once per gallery, however often the sweep runs; Ben (paid) and Cat (no favourites) get none.
    expect((await sweepOnce(db)).galleryReminders).toBe(0);
    expect(smtp().to(ANN, /closes/)).toHaveLength(1);
    expect(smtp().to(BEN, /closes/)).toHaveLength(0);
    expect(smtp().to(CAT, /closes/)).toHaveLength(0);
  });

  it("follows the studio's reminder_days: 0 is off, 7 reminds a week ahead", async () => {
    await favouriteFirstPhoto("S3");
    const db = await getDb();
    await closeIn(5);
    expect((await sweepOnce(db)).galleryReminders).toBe(0); // the default is 3 days
    const off = await call(settingsRoute, "PUT", "/v1/services/studio/gallery-settings", { token: owner.token, body: { reminder_days: 0 } });
    expect(off.json.reminder_days).toBe(0);
    await closeIn(1);
    expect((await sweepOnce(db)).galleryReminders).toBe(0);
    const week = await call(settingsRoute, "PUT", "/v1/services/studio/gallery-settings", { token: owner.token, body: { reminder_days: 7 } });
    expect(week.json.reminder_days).toBe(7);
    await closeIn(5);
    expect((await sweepOnce(db)).galleryReminders).toBe(1);
    await smtp().waitFor(CAT, /gallery of Cat Crane closes/);
    const bad = await call(settingsRoute, "PUT", "/v1/services/studio/gallery-settings", { token: owner.token, body: { reminder_days: 31 } });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.json.details)).toContain("reminder_days");
  });
});
