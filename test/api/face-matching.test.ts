import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { count, eq } from "drizzle-orm";
import sharp from "sharp";
import Papa from "papaparse";
import { getDb } from "@/lib/foundation/db/client";
import { faceReferences, jobFiles, matchJobs, webhookDeliveries } from "@/lib/foundation/db/schema";
import * as endpointsRoute from "@/app/v1/webhook-endpoints/route";
import * as agenciesRoute from "@/app/v1/services/studio/agencies/route";
import { resetConfig } from "@/lib/foundation/config";
import { storage } from "@/lib/domain/storage";
import { shutDownFaces } from "@/lib/engines/ml/faces";
import { finishMatchJob } from "@/lib/services/matching/finish-match-job";
import { call, testAccount } from "../http";
import { balanceOf, ledgerOf, startTestRunner, stopAll, upload } from "../jobs/bg-remove-harness";
import * as h from "../jobs/matching-harness";
import { faceFixture } from "../support/face-fixtures";

// AI Face Matching end to end through the routes: real photos (MIT, ageitgey/face_recognition),
// the real face engine in its worker thread (one model load for this file), the embedded
// job runner, real storage and ledger. The truth: obama*.jpg are Barack Obama, biden*.jpg
// Joe Biden; obama_and_biden.jpg shows both; coffee.jpg shows no one.
beforeAll(() => startTestRunner());
afterAll(async () => {
  await stopAll();
  await shutDownFaces();
});

const photo = (name: string) => ({ name, bytes: faceFixture(name) });
const embeddingsOf = async (agencyId: number) => (await (await getDb()).select({ n: count() }).from(faceReferences).where(eq(faceReferences.agencyId, agencyId)))[0]!.n;

/** A roster of two people with usable portraits, and entries whose portraits are not usable. */
async function roster(token: string) {
  const agency = await h.makeAgency(token);
  const obama = await h.subjectWithPhoto(token, agency.id, "S-OBAMA", "Barack Obama", faceFixture("obama.jpg"));
  const biden = await h.subjectWithPhoto(token, agency.id, "S-BIDEN", "Joe Biden", faceFixture("biden.jpg"));
  return { agency, obama, biden };
}

describe("face matching: references, a match job, results, reviews", () => {
  let token: string;
  let agencyId: number;
  let obamaId: string;
  let bidenId: string;
  let matchJobId: number;
  let fileIds: number[];

  it("builds one embedding per usable portrait and reports the others by student_id; a re-run embeds only what changed", async () => {
    ({ token } = await testAccount({ tokens: 200 }));
    const r = await roster(token);
    agencyId = r.agency.id;
    obamaId = r.obama.id;
    bidenId = r.biden.id;
    await h.subjectWithPhoto(token, agencyId, "S-CUP", "A Cup", faceFixture("coffee.jpg"));
    await h.subjectWithPhoto(token, agencyId, "S-CAT", "A Cat", fs.readFileSync(path.resolve("lib/engines/ml/background-removal/fixtures/chelsea.png")));
    await h.subjectWithPhoto(token, agencyId, "S-PAIR", "Two People", faceFixture("two_people.jpg"));
    await h.subjectWithPhoto(token, agencyId, "S-OPTOUT", "Opted Out", faceFixture("obama2.jpg"), { exclude_from_matching: true });
    expect((await h.addSubject(token, agencyId, { student_id: "S-NOPHOTO", name: "No Photo" })).status).toBe(201);

    const res = await h.buildReferences(token, { agency_id: agencyId });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ status: "completed", agency_id: agencyId, subjects_with_photos: 5, embeddings_created: 2, embeddings_total: 2 });
    const reasons = Object.fromEntries(res.json.report.map((p: { student_id: string; reason: string }) => [p.student_id, p.reason]));
    expect(reasons).toEqual({ "S-CUP": "no_face", "S-CAT": "no_face", "S-PAIR": "multiple_faces" });
    expect(JSON.stringify(res.json)).not.toMatch(/embedding"\s*:\s*\[/);
    expect(await balanceOf(token)).toBe(200); // free

    const again = await h.buildReferences(token, { agency_id: agencyId });
    expect(again.json).toMatchObject({ embeddings_created: 0, embeddings_kept: 2, embeddings_total: 2 });
  }, 120_000);

  it("matches a job's photos: 6 tokens a photo, the group photo belongs to both, a photo with no face is a result, an unreadable one is refunded", async () => {
    const job = await h.makeJobWithPhotos(token, agencyId, [photo("obama2.jpg"), photo("obama-1080p.jpg"), photo("biden2.jpg"), photo("obama_and_biden.jpg"), photo("coffee.jpg"), photo("obama3.jpg")]);
    fileIds = job.fileIds;
    // The last photo's stored bytes go bad after upload (a damaged object): that photo fails and is refunded.
    const [damaged] = await (await getDb()).select().from(jobFiles).where(eq(jobFiles.id, fileIds[5]!));
    await storage().put(damaged!.storageKey, Buffer.from("not a photo any more"), "image/jpeg");

    const res = await h.startMatchJob(token, { agency_id: agencyId, job_id: job.jobId });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ match_job_id: expect.any(Number), task_id: expect.stringMatching(/^task_/), total_files: 6, tokens_deducted: 36, wallet_transaction_id: expect.stringMatching(/^wtx_/) });
    expect(await balanceOf(token)).toBe(164);
    matchJobId = res.json.match_job_id;

    const done = await h.pollMatchJob(token, matchJobId);
    expect(done).toMatchObject({ id: matchJobId, status: "completed", total_files: 6, failed: 1, tokens_refunded: 6 });
    expect(done.matched + done.needs_review + done.unmatched + done.failed).toBe(6);
    expect(await balanceOf(token)).toBe(170);
    const refunds = (await ledgerOf(token)).filter((t) => t.type === "refund");
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ amount: 6, refund_of: res.json.wallet_transaction_id });
    // The account's list shows it with the same counts as its GET.
    const listed = await h.listMatchJobs(token, `?agency_id=${agencyId}`);
    expect(listed.json.data).toEqual([done]);
    // The match job is also its studio task.
    expect((await h.getStudioTask(token, res.json.task_id)).json).toMatchObject({ type: "match_job", id: matchJobId, status: "completed" });

    const results = await h.allResults(token, matchJobId);
    const by = Object.fromEntries(results.map((r) => [r.filename, r]));
    for (const solo of ["obama2.jpg", "obama-1080p.jpg"]) {
      expect(by[solo]).toMatchObject({ status: "completed", decision: "matched" });
      expect(by[solo].faces[0]).toMatchObject({ subject_id: obamaId, student_id: "S-OBAMA", decision: "matched" });
      expect(by[solo].faces[0].score).toBeGreaterThanOrEqual(0.85);
    }
    // An older photo of Biden scores just under the threshold (0.845, see lib/engines/ml/faces/demo-photos/README.md): proposed, to review.
    expect(by["biden2.jpg"].faces[0]).toMatchObject({ subject_id: bidenId, student_id: "S-BIDEN", candidate: { subject_id: bidenId } });
    expect(["matched", "needs_review"]).toContain(by["biden2.jpg"].faces[0].decision);
    const group = by["obama_and_biden.jpg"];
    const groupSubjects = group.faces.filter((f: { decision: string }) => f.decision === "matched").map((f: { subject_id: string }) => f.subject_id);
    expect(new Set(groupSubjects)).toEqual(new Set([obamaId, bidenId]));
    expect(by["coffee.jpg"]).toMatchObject({ status: "completed", decision: "unmatched", faces: [], error: null });
    expect(by["obama3.jpg"]).toMatchObject({ status: "failed", decision: null, error: { code: "UNREADABLE_IMAGE" } });
    // Every face the engine sent to review says why; the others carry no reason.
    for (const r of results)
      for (const f of r.faces) {
        if (f.engine_decision === "needs_review") expect(["below_threshold", "large_roster", "two_candidates_close", "same_child_twice", "small_face"]).toContain(f.review_reason);
        else expect(f.review_reason).toBeNull();
      }
    // The opted-out subject (whose portrait is Obama too) is never a candidate.
    for (const r of results) for (const f of r.faces) expect([f.candidate?.student_id, f.runner_up?.student_id]).not.toContain("S-OPTOUT");

    // A subject's photos: every photo matched to that child, the group photo included.
    const obamas = await h.allResults(token, matchJobId, `&subject_id=${obamaId}`);
    expect(obamas.map((r) => r.filename).sort()).toEqual(["obama-1080p.jpg", "obama2.jpg", "obama_and_biden.jpg"]);
    const failed = await h.allResults(token, matchJobId, "&decision=failed");
    expect(failed.map((r) => r.filename)).toEqual(["obama3.jpg"]);
  }, 180_000);

  it("saves reviews at once, keeps the counts in step, and a later match job over the same photos keeps them", async () => {
    const results = await h.allResults(token, matchJobId);
    const solo = results.find((r) => r.filename === "obama2.jpg")!;
    const face = solo.faces[0];
    const before = (await h.getMatchJob(token, matchJobId)).json;

    const nobody = await h.review(token, matchJobId, face.id, { action: "nobody" });
    expect(nobody.status).toBe(200);
    expect(nobody.json.face).toMatchObject({ decision: "unmatched", subject_id: null, review: "nobody" });
    expect(nobody.json.counts).toMatchObject({ matched: before.matched - 1, unmatched: before.unmatched + 1 });

    const undo = await h.review(token, matchJobId, face.id, { action: "reset" });
    expect(undo.json.face).toMatchObject({ decision: "matched", subject_id: obamaId, review: null });

    const assigned = await h.review(token, matchJobId, face.id, { action: "assign", subject_id: bidenId });
    expect(assigned.json.face).toMatchObject({ decision: "matched", subject_id: bidenId, student_id: "S-BIDEN", review: "assigned" });

    // Another account's subject, an unknown face, another account's job: 404.
    const stranger = await testAccount({ tokens: 10 });
    const theirs = await roster(stranger.token);
    expect((await h.review(token, matchJobId, face.id, { action: "assign", subject_id: theirs.obama.id })).status).toBe(404);
    expect((await h.review(token, matchJobId, "mfc_nope", { action: "accept" })).status).toBe(404);
    expect((await h.review(stranger.token, matchJobId, face.id, { action: "accept" })).status).toBe(404);
    expect((await h.review(token, matchJobId, face.id, { action: "maybe" })).status).toBe(400);

    // A second match job over the same photos keeps the photographer's decision.
    const rerun = await h.startMatchJob(token, { agency_id: agencyId, file_ids: [fileIds[0]!, fileIds[2]!] });
    expect(rerun.status).toBe(200);
    expect(rerun.json.tokens_deducted).toBe(12);
    await h.pollMatchJob(token, rerun.json.match_job_id);
    const again = await h.allResults(token, rerun.json.match_job_id);
    const kept = again.find((r) => r.filename === "obama2.jpg")!.faces[0];
    // The assigned face became one of Biden's references (learn_from_confirmed_matches is on by default), so the engine now proposes Biden for it too.
    expect(kept).toMatchObject({ subject_id: bidenId, review: "assigned", candidate: { subject_id: bidenId } });
  }, 180_000);

  it("'Not this person' never files the face under the runner-up: it is offered for confirmation, then the face is left unmatched", async () => {
    const face = (await h.allResults(token, matchJobId)).find((r) => r.filename === "obama-1080p.jpg")!.faces[0];
    expect(face).toMatchObject({ decision: "matched", subject_id: obamaId, review: null });
    // The runner-up is named, not only numbered.
    expect(face.runner_up).toMatchObject({ subject_id: bidenId, student_id: "S-BIDEN", name: "Joe Biden" });
    const before = (await h.getMatchJob(token, matchJobId)).json;

    const offered = await h.review(token, matchJobId, face.id, { action: "not_this_person" });
    expect(offered.status).toBe(200);
    expect(offered.json.face).toMatchObject({ decision: "needs_review", subject_id: bidenId, name: "Joe Biden", review: "rejected" });
    expect(offered.json.counts).toMatchObject({ matched: before.matched - 1, needs_review: before.needs_review + 1 });
    expect(offered.json.reference_learned).toBe(false);
    // Not in Biden's photos (nor the export) until someone confirms it.
    const bidens = await h.allResults(token, matchJobId, `&subject_id=${bidenId}`);
    expect(bidens.map((r) => r.filename)).not.toContain("obama-1080p.jpg");
    const csv = Papa.parse<Record<string, string>>((await h.exportCsv(token, matchJobId)).text.trim(), { header: true }).data;
    expect(csv.find((r) => r.file_name === "obama-1080p.jpg")).toMatchObject({ decision: "needs_review" });

    // Not the runner-up either: nobody is left to propose, so the face is unmatched.
    const none = await h.review(token, matchJobId, face.id, { action: "not_this_person" });
    expect(none.json.face).toMatchObject({ decision: "unmatched", subject_id: null, review: "rejected" });
    expect((await h.review(token, matchJobId, face.id, { action: "accept" })).status).toBe(400);

    // Undo, reject again, and confirm the offer: only then is it matched, by the reviewer.
    await h.review(token, matchJobId, face.id, { action: "reset" });
    await h.review(token, matchJobId, face.id, { action: "not_this_person" });
    const confirmed = await h.review(token, matchJobId, face.id, { action: "accept" });
    expect(confirmed.json.face).toMatchObject({ decision: "matched", subject_id: bidenId, review: "accepted" });
    const reset = await h.review(token, matchJobId, face.id, { action: "reset" });
    expect(reset.json.face).toMatchObject({ decision: "matched", subject_id: obamaId, review: null });
    expect(reset.json.counts).toMatchObject({ matched: before.matched, needs_review: before.needs_review });
  }, 120_000);

  it("exports a match job as CSV: one row per face, photos without a face or unreadable ones too, and who decided", async () => {
    const res = await h.exportCsv(token, matchJobId);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/csv");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="match-job-${matchJobId}.csv"`);
    const parsed = Papa.parse<Record<string, string>>(res.text.trim(), { header: true });
    expect(parsed.meta.fields).toEqual(["file_name", "face", "subject", "student_id", "decision", "score", "decided_by"]);
    const rows = parsed.data;
    const results = await h.allResults(token, matchJobId);
    expect(rows).toHaveLength(results.reduce((n, r) => n + Math.max(1, r.faces.length), 0));
    // The face reassigned by hand in the test above, as the reviewer left it.
    expect(rows.find((r) => r.file_name === "obama2.jpg")).toMatchObject({ face: "1", subject: "Joe Biden", student_id: "S-BIDEN", decision: "matched", decided_by: "reviewer (assigned)" });
    expect(rows.find((r) => r.file_name === "obama-1080p.jpg")).toMatchObject({ student_id: "S-OBAMA", decision: "matched", decided_by: "engine" });
    expect(Number(rows.find((r) => r.file_name === "obama-1080p.jpg")!.score)).toBeGreaterThanOrEqual(0.85);
    expect(rows.filter((r) => r.file_name === "obama_and_biden.jpg").length).toBeGreaterThanOrEqual(2);
    expect(rows.find((r) => r.file_name === "coffee.jpg")).toMatchObject({ face: "", decision: "no_face" });
    expect(rows.find((r) => r.file_name === "obama3.jpg")).toMatchObject({ decision: "failed" });
    // Another account's match job is a 404.
    const stranger = await testAccount();
    expect((await h.exportCsv(stranger.token, matchJobId)).status).toBe(404);
  });
});

describe("face matching: bad input costs nothing", () => {
  it("answers 400, 422, 404 and 403 with the field named, and charges nothing", async () => {
    const { token } = await testAccount({ tokens: 100 });
    const stranger = await testAccount({ tokens: 100 });
    const { agency } = await roster(token);
    const job = await h.makeJobWithPhotos(token, agency.id, [photo("obama2.jpg")]);
    const theirs = await roster(stranger.token);
    const theirJob = await h.makeJobWithPhotos(stranger.token, theirs.agency.id, [photo("biden2.jpg")]);

    // Before references exist: 400.
    const early = await h.startMatchJob(token, { agency_id: agency.id, job_id: job.jobId });
    expect(early.status).toBe(400);
    expect(early.json.error).toBe("REFERENCES_NOT_BUILT");
    expect((await h.buildReferences(token, { agency_id: agency.id })).status).toBe(200);

    const cases: [unknown, number, string][] = [
      [{ agency_id: "1", job_id: job.jobId }, 400, "agency_id"],
      [{ agency_id: agency.id, job_id: job.jobId, threshold: 0.49 }, 400, "threshold"],
      [{ agency_id: agency.id, job_id: job.jobId, threshold: 1 }, 400, "threshold"],
      [{ agency_id: agency.id, job_id: job.jobId, threshold: "high" }, 400, "threshold"],
      [{ agency_id: agency.id, file_ids: [] }, 400, "file_ids"],
      [{ agency_id: agency.id, file_ids: Array.from({ length: 5000 }, (_, i) => i + 1) }, 400, "file_ids"],
      [{ agency_id: agency.id, job_id: job.jobId, file_ids: job.fileIds }, 400, "file_ids"],
      [{ agency_id: agency.id, job_id: job.jobId, colour: "red" }, 400, "colour"],
    ];
    for (const [body, status, field] of cases) {
      const res = await h.startMatchJob(token, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(status);
      expect(JSON.stringify(res.json.details), JSON.stringify(body).slice(0, 80)).toContain(field);
    }
    const neither = await h.startMatchJob(token, { agency_id: agency.id });
    expect(neither.status).toBe(422);
    expect(neither.json.error).toBe("MISSING_FILES");
    // Another account's agency, job and files: 404, never a hint that they exist.
    expect((await h.startMatchJob(token, { agency_id: theirs.agency.id, job_id: theirJob.jobId })).status).toBe(404);
    expect((await h.startMatchJob(token, { agency_id: agency.id, job_id: theirJob.jobId })).status).toBe(404);
    const foreignFiles = await h.startMatchJob(token, { agency_id: agency.id, file_ids: [job.fileIds[0]!, theirJob.fileIds[0]!] });
    expect(foreignFiles.status).toBe(404);
    expect(foreignFiles.json.details.missing).toEqual([theirJob.fileIds[0]]);
    expect((await h.buildReferences(token, { agency_id: theirs.agency.id })).status).toBe(404);
    expect((await h.deleteReferences(token, theirs.agency.id)).status).toBe(404);
    expect((await h.deleteReferences(token, "abc")).status).toBe(400);
    expect((await h.getMatchJob(token, 2_000_000_000)).status).toBe(404);
    expect((await h.startMatchJob(token, "not json" as unknown)).status).toBe(400);
    expect(await balanceOf(token)).toBe(100);

    // A match job of another account: 404 everywhere.
    expect((await h.buildReferences(stranger.token, { agency_id: theirs.agency.id })).status).toBe(200);
    const theirMatch = await h.startMatchJob(stranger.token, { agency_id: theirs.agency.id, job_id: theirJob.jobId });
    expect(theirMatch.status).toBe(200);
    expect((await h.getMatchJob(token, theirMatch.json.match_job_id)).status).toBe(404);
    expect((await h.getResults(token, theirMatch.json.match_job_id)).status).toBe(404);
    expect((await h.getStudioTask(token, theirMatch.json.task_id)).status).toBe(404);
    await h.pollMatchJob(stranger.token, theirMatch.json.match_job_id);
  }, 120_000);

  it("a 402 when the wallet is short takes nothing and starts nothing", async () => {
    const { token } = await testAccount({ tokens: 5 });
    const { agency } = await roster(token);
    const job = await h.makeJobWithPhotos(token, agency.id, [photo("obama2.jpg")]);
    await h.buildReferences(token, { agency_id: agency.id });
    const res = await h.startMatchJob(token, { agency_id: agency.id, job_id: job.jobId });
    expect(res.status).toBe(402);
    expect(await balanceOf(token)).toBe(5);
    expect((await (await getDb()).select({ n: count() }).from(matchJobs).where(eq(matchJobs.agencyId, agency.id)))[0]!.n).toBe(0);
  }, 60_000);

  it("a match job that fails as a whole refunds every photo it did not match, once, and tells the account's webhook", async () => {
    const { token, account } = await testAccount({ tokens: 100 });
    const { agency } = await roster(token);
    const job = await h.makeJobWithPhotos(token, agency.id, [photo("obama2.jpg"), photo("biden2.jpg")]);
    await h.buildReferences(token, { agency_id: agency.id });
    // A webhook endpoint (on a local address the test allows) for the failure and its refund.
    process.env.FETCH_ALLOW_HOSTS = "127.0.0.1";
    resetConfig();
    const hook = await call(endpointsRoute, "POST", "/v1/webhook-endpoints", { token, body: { url: "http://127.0.0.1:9/hook", events: ["match_job.failed", "match_job.completed", "refund.created"] } });
    expect(hook.status).toBe(201);
    await stopAll(); // nothing runs it: what onFailure does after the last attempt is what is left
    const res = await h.startMatchJob(token, { agency_id: agency.id, job_id: job.jobId });
    expect(await balanceOf(token)).toBe(88);
    await finishMatchJob(await getDb(), { matchJobId: res.json.match_job_id, accountId: account.id, outcome: "failed" });
    await finishMatchJob(await getDb(), { matchJobId: res.json.match_job_id, accountId: account.id, outcome: "failed" });
    expect(await balanceOf(token)).toBe(100);
    const viaGet = (await h.getMatchJob(token, res.json.match_job_id)).json;
    expect(viaGet).toMatchObject({ status: "failed", failed: 2, tokens_refunded: 12 });
    const deliveries = await (await getDb()).select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, hook.json.id));
    expect(deliveries.map((d) => d.eventType).sort()).toEqual(["match_job.failed", "refund.created"]);
    expect(deliveries.find((d) => d.eventType === "match_job.failed")!.payload).toMatchObject({ type: "match_job.failed", data: viaGet });
    delete process.env.FETCH_ALLOW_HOSTS;
    resetConfig();
    await startTestRunner();
  }, 60_000);
});

describe("face matching: consent and deletion of biometric data", () => {
  it("switching an agency off deletes its embeddings and refuses matching with 403 naming the setting", async () => {
    const { token } = await testAccount({ tokens: 100 });
    const { agency } = await roster(token);
    expect((await h.buildReferences(token, { agency_id: agency.id })).json.embeddings_created).toBe(2);
    const off = await h.patchAgency(token, agency.id, { face_matching_enabled: false });
    expect(off.status).toBe(200);
    expect(off.json.face_matching_enabled).toBe(false);
    expect(await embeddingsOf(agency.id)).toBe(0);
    const refused = await h.buildReferences(token, { agency_id: agency.id });
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({ error: "FACE_MATCHING_DISABLED" });
    expect(refused.json.message).toContain("face_matching_enabled");
    const job = await h.makeJobWithPhotos(token, agency.id, [photo("obama2.jpg")]);
    expect((await h.startMatchJob(token, { agency_id: agency.id, job_id: job.jobId })).status).toBe(403);
    expect(await balanceOf(token)).toBe(100);
    const stranger = await testAccount();
    expect((await h.patchAgency(stranger.token, agency.id, { face_matching_enabled: true, consent_confirmed: true })).status).toBe(404);
    expect((await h.patchAgency(token, agency.id, { face_matching_enabled: "yes" })).status).toBe(400);
    expect((await h.patchAgency(token, agency.id, { face_matching_enabled: true, consent_confirmed: true })).json.face_matching_enabled).toBe(true);
    expect((await h.buildReferences(token, { agency_id: agency.id })).json.embeddings_created).toBe(2);
  }, 60_000);

  it("starts off for a new agency, and turns on only with consent confirmed, recording who and when", async () => {
    const { token, email, account } = await testAccount();
    const created = await call(agenciesRoute, "POST", "/v1/services/studio/agencies", { token, body: { name: "Oak Primary", agency_type: "school" } });
    expect(created.json).toMatchObject({ face_matching_enabled: false, face_matching_consent: null });
    const id = created.json.id as number;
    expect((await h.buildReferences(token, { agency_id: id })).json).toMatchObject({ error: "FACE_MATCHING_DISABLED" });

    const unconfirmed = await h.patchAgency(token, id, { face_matching_enabled: true });
    expect(unconfirmed.status).toBe(400);
    expect(unconfirmed.json.details.fields).toEqual([expect.objectContaining({ field: "consent_confirmed" })]);
    expect((await h.patchAgency(token, id, { face_matching_enabled: true, consent_confirmed: false })).status).toBe(400);
    expect((await h.getAgency(token, id)).json.face_matching_enabled).toBe(false);

    const before = Date.now();
    const on = await h.patchAgency(token, id, { face_matching_enabled: true, consent_confirmed: true });
    expect(on.status).toBe(200);
    expect(on.json.face_matching_consent.confirmed_by).toBe(`${account.name} <${email}> (access token)`);
    expect(new Date(on.json.face_matching_consent.confirmed_at).getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect((await h.getAgency(token, id)).json.face_matching_consent).toEqual(on.json.face_matching_consent);

    // Off withdraws the record; a rename leaves the switch and its record alone.
    const renamed = await h.patchAgency(token, id, { name: "Oak Primary School" });
    expect(renamed.json.face_matching_consent).toEqual(on.json.face_matching_consent);
    const off = await h.patchAgency(token, id, { face_matching_enabled: false });
    expect(off.json).toMatchObject({ face_matching_enabled: false, face_matching_consent: null });
  });

  it("a subject's embedding goes when it opts out, when it is deleted, and with DELETE .../references", async () => {
    const { token } = await testAccount();
    const { agency, obama, biden } = await roster(token);
    await h.buildReferences(token, { agency_id: agency.id });
    expect(await embeddingsOf(agency.id)).toBe(2);
    const optOut = await h.patchSubject(token, agency.id, obama.id, { exclude_from_matching: true });
    expect(optOut.json.exclude_from_matching).toBe(true);
    expect(await embeddingsOf(agency.id)).toBe(1);
    // A new reference photo drops the old embedding at once; the next build makes the new one.
    const newPhoto = await upload(token, faceFixture("biden2.jpg"), "new.jpg", "image/jpeg");
    expect((await h.patchSubject(token, agency.id, biden.id, { reference_photo_url: newPhoto })).status).toBe(200);
    expect(await embeddingsOf(agency.id)).toBe(0);
    expect((await h.buildReferences(token, { agency_id: agency.id })).json).toMatchObject({ subjects_with_photos: 1, embeddings_total: 1 });
    expect((await h.deleteSubject(token, agency.id, biden.id)).status).toBe(204);
    expect(await embeddingsOf(agency.id)).toBe(0);
    await h.patchSubject(token, agency.id, obama.id, { exclude_from_matching: false });
    await h.buildReferences(token, { agency_id: agency.id });
    const del = await h.deleteReferences(token, agency.id);
    expect(del.json).toEqual({ agency_id: agency.id, embeddings_deleted: 1 });
    expect(await embeddingsOf(agency.id)).toBe(0);
  }, 60_000);

  it("from 20 subjects with photos references are a task, and the same child entered twice is reported", async () => {
    const { token } = await testAccount();
    const agency = await h.makeAgency(token);
    const small = async (name: string) => sharp(faceFixture(name)).resize(320, 320, { fit: "inside" }).jpeg().toBuffer();
    const pool = [await small("obama.jpg"), await small("biden.jpg"), faceFixture("coffee.jpg")];
    // 20 entries, many sharing a portrait: the duplicates are what the report must find.
    for (let i = 0; i < 20; i++) await h.subjectWithPhoto(token, agency.id, `S${i}`, `Child ${i}`, pool[i % 3]!);
    const res = await h.buildReferences(token, { agency_id: agency.id });
    expect(res.status).toBe(202);
    expect(res.json).toMatchObject({ status: "queued", agency_id: agency.id, task_id: expect.stringMatching(/^task_/), subjects_with_photos: 20 });
    const task = await h.pollStudioTask(token, res.json.task_id);
    expect(task).toMatchObject({ type: "face_references", status: "completed", subjects_total: 20, processed: 20, embeddings_created: 14 });
    const reasons = task.report.map((p: { reason: string }) => p.reason);
    expect(reasons.filter((r: string) => r === "no_face")).toHaveLength(6);
    expect(reasons.filter((r: string) => r === "possible_duplicate").length).toBeGreaterThan(0);
    const stranger = await testAccount();
    expect((await h.getStudioTask(stranger.token, res.json.task_id)).status).toBe(404);
  }, 180_000);
});

