import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, count, eq } from "drizzle-orm";
import sharp from "sharp";
import { getDb } from "@/lib/foundation/db/client";
import { agencies, faceReferences, subjectPortraits } from "@/lib/foundation/db/schema";
import * as portraitsRoute from "@/app/v1/services/studio/agencies/[agencyId]/subjects/[subjectId]/portraits/route";
import * as portraitRoute from "@/app/v1/services/studio/agencies/[agencyId]/subjects/[subjectId]/portraits/[portraitId]/route";
import * as referencesRoute from "@/app/v1/services/studio/agencies/[agencyId]/subjects/[subjectId]/references/route";
import * as referenceRoute from "@/app/v1/services/studio/agencies/[agencyId]/subjects/[subjectId]/references/[referenceId]/route";
import * as agencyRoute from "@/app/v1/services/studio/agencies/[agencyId]/route";
import { storage } from "@/lib/domain/storage";
import { shutDownFaces } from "@/lib/engines/ml/faces";
import { deleteUnusedReferences } from "@/lib/services/matching/retention";
import * as importRoute from "@/app/v1/services/studio/agencies/[agencyId]/subjects/import/route";
import { call, testAccount } from "../http";
import { startTestRunner, stopAll } from "../jobs/bg-remove-harness";
import * as h from "../jobs/matching-harness";
import { faceFixture } from "../support/face-fixtures";

// Several references per subject, through the routes: uploaded portraits (multipart,
// embedded at once while matching is on), a face matched through its second
// reference, confirmed matches learned as references (and not when the agency says
// no), and every path that deletes biometric data. Real photos (MIT,
// ageitgey/face_recognition), the real face engine (one model load for this file),
// the embedded job runner, real storage.
beforeAll(() => startTestRunner());
afterAll(async () => {
  await stopAll();
  await shutDownFaces();
});

const A = "/v1/services/studio/agencies";
const params = (agencyId: number, subjectId: string) => ({ agencyId: String(agencyId), subjectId });
const form = (...files: { name: string; bytes: Buffer; type?: string }[]) => {
  const f = new FormData();
  for (const p of files) f.append("file", new File([new Uint8Array(p.bytes)], p.name, { type: p.type ?? "image/jpeg" }));
  return f;
};
const face = (name: string) => ({ name, bytes: faceFixture(name) });
const uploadPortraits = (token: string, agencyId: number, subjectId: string, body: FormData) =>
  call(portraitsRoute, "POST", `${A}/${agencyId}/subjects/${subjectId}/portraits`, { token, params: params(agencyId, subjectId), rawBody: body });
const listPortraits = (token: string, agencyId: number, subjectId: string) => call(portraitsRoute, "GET", `${A}/${agencyId}/subjects/${subjectId}/portraits`, { token, params: params(agencyId, subjectId) });
const deletePortrait = (token: string, agencyId: number, subjectId: string, portraitId: string) =>
  call(portraitRoute, "DELETE", `${A}/${agencyId}/subjects/${subjectId}/portraits/${portraitId}`, { token, params: { ...params(agencyId, subjectId), portraitId } });
const listReferences = (token: string, agencyId: number, subjectId: string) => call(referencesRoute, "GET", `${A}/${agencyId}/subjects/${subjectId}/references`, { token, params: params(agencyId, subjectId) });
const deleteReference = (token: string, agencyId: number, subjectId: string, referenceId: string) =>
  call(referenceRoute, "DELETE", `${A}/${agencyId}/subjects/${subjectId}/references/${referenceId}`, { token, params: { ...params(agencyId, subjectId), referenceId } });

async function embeddings(where: { agencyId?: number; subjectId?: string; source?: "portrait" | "confirmed_match" }) {
  const db = await getDb();
  const [row] = await db
    .select({ n: count() })
    .from(faceReferences)
    .where(
      and(
        where.agencyId ? eq(faceReferences.agencyId, where.agencyId) : undefined,
        where.subjectId ? eq(faceReferences.subjectId, where.subjectId) : undefined,
        where.source ? eq(faceReferences.source, where.source) : undefined,
      ),
    );
  return row!.n;
}

/** An agency with matching on, Obama (a reference_photo_url) and Biden (an uploaded portrait). */
async function roster(token: string) {
  const agency = await h.makeAgency(token);
  const obama = await h.subjectWithPhoto(token, agency.id, "S-OBAMA", "Barack Obama", faceFixture("obama.jpg"));
  const biden = (await h.addSubject(token, agency.id, { student_id: "S-BIDEN", name: "Joe Biden" })).json as { id: string };
  expect((await uploadPortraits(token, agency.id, biden.id, form(face("biden.jpg")))).status).toBe(201);
  return { agencyId: agency.id, obama, biden };
}

async function matchOne(token: string, agencyId: number, file: string) {
  const job = await h.makeJobWithPhotos(token, agencyId, [face(file)]);
  const started = await h.startMatchJob(token, { agency_id: agencyId, job_id: job.jobId });
  expect(started.status, started.text).toBe(200);
  await h.pollMatchJob(token, started.json.match_job_id);
  const [result] = await h.allResults(token, started.json.match_job_id);
  return { matchJobId: started.json.match_job_id as number, face: result.faces[0] };
}

describe("reference portraits: several per subject", () => {
  let token: string;
  let agencyId: number;
  let obamaId: string;

  it("uploads several portraits in one request, embeds each at once, lists them with thumbnails, and counts the reference_photo_url as one of five", async () => {
    ({ token } = await testAccount({ tokens: 100 }));
    const r = await roster(token);
    agencyId = r.agencyId;
    obamaId = r.obama.id;
    const added = await uploadPortraits(token, agencyId, obamaId, form(face("obama2.jpg"), face("obama-1080p.jpg")));
    expect(added.status, added.text).toBe(201);
    expect(added.json).toMatchObject({ subject_id: obamaId, reference_photos: 3, max_reference_photos: 5 });
    expect(added.json.portraits.map((p: { filename: string; embedded: boolean }) => [p.filename, p.embedded])).toEqual([
      ["obama2.jpg", true],
      ["obama-1080p.jpg", true],
    ]);
    const [stored] = await (await getDb()).select().from(subjectPortraits).where(eq(subjectPortraits.id, added.json.portraits[1].id));
    const thumb = await sharp((await storage().get(stored!.thumbnailKey))!.body).metadata();
    expect([thumb.format, Math.max(thumb.width!, thumb.height!)]).toEqual(["jpeg", 320]);
    // Each portrait is its own embedding, and the reference_photo_url's is made by the build.
    expect(await embeddings({ subjectId: obamaId })).toBe(2);
    const built = await h.buildReferences(token, { agency_id: agencyId });
    expect(built.json).toMatchObject({ embeddings_created: 1, embeddings_kept: 3, embeddings_total: 4, report: [] });
    const refs = await listReferences(token, agencyId, obamaId);
    const madeFrom = refs.json.references.map((x: { source: string; portrait_id: string | null }) => `${x.source}:${x.portrait_id ?? "reference_photo_url"}`);
    expect(madeFrom.sort()).toEqual(["portrait:reference_photo_url", ...added.json.portraits.map((p: { id: string }) => `portrait:${p.id}`)].sort());
    expect(JSON.stringify(refs.json)).not.toMatch(/embedding"\s*:\s*\[/);
  }, 180_000);

  it("while matching is off, stores portraits without embedding them; the build embeds them once it is on", async () => {
    const { token: own } = await testAccount();
    const created = (await h.addSubject(own, (await h.makeAgency(own, "Off school")).id, { student_id: "S-1", name: "Ada" })).json as { id: string; agency_id: number };
    await h.patchAgency(own, created.agency_id, { face_matching_enabled: false });
    const stored = await uploadPortraits(own, created.agency_id, created.id, form(face("biden.jpg"), face("coffee.jpg")));
    expect(stored.status, stored.text).toBe(201);
    expect(stored.json.portraits.map((p: { embedded: boolean }) => p.embedded)).toEqual([false, false]);
    expect(await embeddings({ subjectId: created.id })).toBe(0);
    await h.patchAgency(own, created.agency_id, { face_matching_enabled: true, consent_confirmed: true });
    const built = await h.buildReferences(own, { agency_id: created.agency_id });
    expect(built.json).toMatchObject({ subjects_with_photos: 1, embeddings_created: 1 });
    const coffee = stored.json.portraits[1].id;
    expect(built.json.report).toEqual([expect.objectContaining({ subject_id: created.id, portrait_id: coffee, reason: "no_face" })]);
    expect((await listPortraits(own, created.agency_id, created.id)).json.portraits.map((p: { embedded: boolean }) => p.embedded)).toEqual([true, false]);
  }, 120_000);

  it("refuses a sixth reference photo, a file that is not a photo, and a portrait without one clear face, naming the part", async () => {
    const two = await uploadPortraits(token, agencyId, obamaId, form(face("obama3.jpg"), face("obama.jpg"), face("obama2.jpg")));
    expect(two.status).toBe(409);
    expect(two.json).toMatchObject({ error: "TOO_MANY_REFERENCE_PHOTOS", details: { field: "file", max: 5, current: 3 } });
    const text = await uploadPortraits(token, agencyId, obamaId, form({ name: "notes.jpg", bytes: Buffer.from("just some text, not a photo"), type: "image/jpeg" }));
    expect(text.status).toBe(415);
    expect(text.json).toMatchObject({ error: "UNSUPPORTED_FILE_TYPE", details: { field: "file" } });
    const pair = await uploadPortraits(token, agencyId, obamaId, form(face("obama3.jpg"), face("two_people.jpg")));
    expect(pair.status).toBe(422);
    expect(pair.json).toMatchObject({ error: "MULTIPLE_FACES", details: { field: "file[1]" } });
    const none = await uploadPortraits(token, agencyId, obamaId, form(face("coffee.jpg")));
    expect(none.json).toMatchObject({ error: "NO_FACE", details: { field: "file" } });
    const empty = await uploadPortraits(token, agencyId, obamaId, form());
    expect(empty.status).toBe(400);
    expect(empty.json.details.fields).toEqual([expect.objectContaining({ field: "file" })]);
    // Nothing refused was stored.
    expect((await listPortraits(token, agencyId, obamaId)).json.reference_photos).toBe(3);
    // Five uploaded portraits leave no room for a reference_photo_url (it counts as one).
    const full = (await h.addSubject(token, agencyId, { student_id: "S-FULL", name: "Five Portraits" })).json as { id: string };
    const five = await uploadPortraits(token, agencyId, full.id, form(face("obama.jpg"), face("obama2.jpg"), face("obama3.jpg"), face("obama-1080p.jpg"), face("biden.jpg")));
    expect(five.json.reference_photos, five.text).toBe(5);
    const url = await h.patchSubject(token, agencyId, full.id, { reference_photo_url: (await listPortraits(token, agencyId, obamaId)).json.reference_photo_url });
    expect(url.status).toBe(409);
    expect(url.json).toMatchObject({ error: "TOO_MANY_REFERENCE_PHOTOS", details: { field: "reference_photo_url", max: 5, current: 5 } });
    // The same through a roster CSV that updates the subject: the line is refused, nothing imported.
    const csv = `student_id,name,reference_photo_url\nS-FULL,Five Portraits,${(await listPortraits(token, agencyId, obamaId)).json.reference_photo_url}\n`;
    const imported = await call(importRoute, "POST", `/v1/services/studio/agencies/${agencyId}/subjects/import?on_conflict=update`, {
      token,
      params: { agencyId: String(agencyId) },
      rawBody: csv,
      headers: { "content-type": "text/csv" },
    });
    expect(imported.status, imported.text).toBe(400);
    expect(imported.json.details.errors).toEqual([expect.objectContaining({ line: 2, field: "reference_photo_url" })]);
    expect((await h.deleteSubject(token, agencyId, full.id)).status).toBe(204);
  }, 120_000);

  it("another account's subject, portrait and reference are 404, and nothing changes", async () => {
    const stranger = await testAccount();
    const theirs = await h.makeAgency(stranger.token, "Their school");
    const portraits = (await listPortraits(token, agencyId, obamaId)).json.portraits;
    const refs = (await listReferences(token, agencyId, obamaId)).json.references;
    expect((await listPortraits(stranger.token, agencyId, obamaId)).status).toBe(404);
    expect((await listPortraits(stranger.token, theirs.id, obamaId)).status).toBe(404);
    expect((await uploadPortraits(stranger.token, agencyId, obamaId, form(face("biden2.jpg")))).status).toBe(404);
    expect((await deletePortrait(stranger.token, agencyId, obamaId, portraits[0].id)).status).toBe(404);
    expect((await listReferences(stranger.token, agencyId, obamaId)).status).toBe(404);
    expect((await deleteReference(stranger.token, agencyId, obamaId, refs[0].id)).status).toBe(404);
    expect((await listPortraits(token, agencyId, obamaId)).json.portraits).toHaveLength(2);
    expect(await embeddings({ subjectId: obamaId })).toBe(3);
  });

  it("matches a face through its subject's second reference: the best of its references is the score", async () => {
    // obama2.jpg is Obama's second reference (an uploaded portrait): the same face scores as that reference, not the first.
    const viaSecond = await matchOne(token, agencyId, "obama2.jpg");
    expect(viaSecond.face).toMatchObject({ decision: "matched", subject_id: obamaId });
    expect(viaSecond.face.score).toBeGreaterThan(0.99);
    // Without that portrait (and its embedding), the same face scores lower, against the others.
    const portraits = (await listPortraits(token, agencyId, obamaId)).json.portraits as { id: string; filename: string }[];
    const second = portraits.find((p) => p.filename === "obama2.jpg")!;
    expect((await deletePortrait(token, agencyId, obamaId, second.id)).status).toBe(204);
    expect(await embeddings({ subjectId: obamaId })).toBe(2);
    const without = await matchOne(token, agencyId, "obama2.jpg");
    expect(without.face.candidate.subject_id).toBe(obamaId);
    expect(without.face.score).toBeLessThan(viaSecond.face.score);
  }, 240_000);
});

describe("confirmed matches as references", () => {
  it("a reviewer's accepted or assigned face becomes a reference of that subject; undone, it goes; off, nothing is learned and what was is deleted", async () => {
    const { token } = await testAccount({ tokens: 100 });
    const { agencyId, obama, biden } = await roster(token);
    await h.buildReferences(token, { agency_id: agencyId });
    expect((await h.getAgency(token, agencyId)).json.learn_from_confirmed_matches).toBe(true);

    const { matchJobId, face: f } = await matchOne(token, agencyId, "biden2.jpg");
    const accepted = await h.review(token, matchJobId, f.id, { action: "assign", subject_id: biden.id });
    expect(accepted.status).toBe(200);
    expect(accepted.json.reference_learned).toBe(true);
    const refs = (await listReferences(token, agencyId, biden.id)).json.references;
    expect(refs.map((r: { source: string }) => r.source)).toEqual(["confirmed_match", "portrait"]);
    const learned = refs.find((r: { source: string }) => r.source === "confirmed_match");
    expect(learned).toMatchObject({ match_face_id: f.id, match_job_id: matchJobId, filename: "biden2.jpg" });
    expect(learned.thumbnail_url).toEqual(expect.any(String));
    // Reviewed again: still one reference from that face.
    expect((await h.review(token, matchJobId, f.id, { action: "assign", subject_id: biden.id })).json.reference_learned).toBe(true);
    expect(await embeddings({ subjectId: biden.id, source: "confirmed_match" })).toBe(1);
    // A portrait's reference is removed with its portrait, not alone.
    const fromPortrait = refs.find((r: { source: string }) => r.source === "portrait");
    expect((await deleteReference(token, agencyId, biden.id, fromPortrait.id)).json).toMatchObject({ error: "REFERENCE_FROM_PORTRAIT" });
    // Undone (nobody): the learned reference goes at once.
    await h.review(token, matchJobId, f.id, { action: "nobody" });
    expect(await embeddings({ subjectId: biden.id, source: "confirmed_match" })).toBe(0);
    // Learned again, then removed by hand from the roster.
    await h.review(token, matchJobId, f.id, { action: "assign", subject_id: biden.id });
    const again = (await listReferences(token, agencyId, biden.id)).json.references.find((r: { source: string }) => r.source === "confirmed_match");
    expect((await deleteReference(token, agencyId, biden.id, again.id)).status).toBe(204);
    expect(await embeddings({ subjectId: biden.id, source: "confirmed_match" })).toBe(0);

    // Learned once more, then the agency turns learning off: what was learned is deleted and nothing new is.
    await h.review(token, matchJobId, f.id, { action: "assign", subject_id: biden.id });
    expect(await embeddings({ agencyId, source: "confirmed_match" })).toBe(1);
    const off = await h.patchAgency(token, agencyId, { learn_from_confirmed_matches: false });
    expect(off.json).toMatchObject({ learn_from_confirmed_matches: false, face_matching_enabled: true });
    expect(await embeddings({ agencyId, source: "confirmed_match" })).toBe(0);
    const notLearned = await h.review(token, matchJobId, f.id, { action: "assign", subject_id: obama.id });
    expect(notLearned.json.reference_learned).toBe(false);
    expect(await embeddings({ agencyId, source: "confirmed_match" })).toBe(0);
    const bad = await h.patchAgency(token, agencyId, { learn_from_confirmed_matches: "yes" });
    expect(bad.status).toBe(400);
    expect(bad.json.details.fields).toEqual([expect.objectContaining({ field: "learn_from_confirmed_matches" })]);
  }, 240_000);
});

describe("every path that deletes biometric data takes every reference of the subject", () => {
  it("the subject (with its portraits' stored files), DELETE references, the consent switch, retention and the agency", async () => {
    const { token } = await testAccount({ tokens: 100 });
    const db = await getDb();
    const setup = async () => {
      const r = await roster(token);
      await uploadPortraits(token, r.agencyId, r.obama.id, form(face("obama2.jpg")));
      await h.buildReferences(token, { agency_id: r.agencyId });
      // A learned reference too (as a review adds it), so each path is seen taking both kinds.
      const [one] = await db.select().from(faceReferences).where(eq(faceReferences.subjectId, r.obama.id)).limit(1);
      await db.insert(faceReferences).values({ ...one!, id: `fref_learned${r.agencyId}`, source: "confirmed_match", portraitId: null });
      expect(await embeddings({ agencyId: r.agencyId })).toBe(4);
      return r;
    };

    const s = await setup();
    const keys = await db.select({ key: subjectPortraits.storageKey, thumb: subjectPortraits.thumbnailKey }).from(subjectPortraits).where(eq(subjectPortraits.subjectId, s.obama.id));
    expect(await storage().get(keys[0]!.key)).not.toBeNull();
    expect((await h.deleteSubject(token, s.agencyId, s.obama.id)).status).toBe(204);
    expect(await embeddings({ subjectId: s.obama.id })).toBe(0);
    for (const k of keys) for (const key of [k.key, k.thumb]) expect(await storage().get(key)).toBeNull();

    expect((await h.deleteReferences(token, s.agencyId)).json.embeddings_deleted).toBe(1);
    expect(await embeddings({ agencyId: s.agencyId })).toBe(0);

    const c = await setup();
    await h.patchAgency(token, c.agencyId, { face_matching_enabled: false });
    expect(await embeddings({ agencyId: c.agencyId })).toBe(0);

    const t = await setup();
    await db.update(agencies).set({ matchingUsedAt: new Date(Date.now() - 400 * 86_400_000) }).where(eq(agencies.id, t.agencyId));
    expect(await deleteUnusedReferences(db, new Date(Date.now() - 200 * 86_400_000))).toBeGreaterThanOrEqual(4);
    expect(await embeddings({ agencyId: t.agencyId })).toBe(0);

    const g = await setup();
    const portraitKeys = await db.select({ key: subjectPortraits.storageKey }).from(subjectPortraits).where(eq(subjectPortraits.agencyId, g.agencyId));
    const gone = await call(agencyRoute, "DELETE", `${A}/${g.agencyId}?cascade=true`, { token, params: { agencyId: String(g.agencyId) } });
    expect(gone.status).toBe(200);
    expect(await embeddings({ agencyId: g.agencyId })).toBe(0);
    for (const p of portraitKeys) expect(await storage().get(p.key)).toBeNull();
  }, 300_000);
});
