import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/lib/foundation/db/client";
import { matchFaces } from "@/lib/foundation/db/schema";
import * as groupsRoute from "@/app/v1/services/studio/matching/jobs/[matchJobId]/groups/route";
import * as groupRoute from "@/app/v1/services/studio/matching/jobs/[matchJobId]/groups/[group]/route";
import { shutDownFaces } from "@/lib/engines/ml/faces";
import { call, testAccount } from "../http";
import { startTestRunner, stopAll } from "../jobs/bg-remove-harness";
import * as h from "../jobs/matching-harness";
import { faceFixture } from "../support/face-fixtures";

// Review by group (issue 32): the match job's last step groups its faces by likeness,
// and one decision files a whole group. Real face engine and job runner, real routes.
// Photos: test/fixtures/faces (MIT, ageitgey/face_recognition). Biden is on the roster
// without a portrait, so the engine cannot file his faces: they are the group to review.
beforeAll(() => startTestRunner());
afterAll(async () => {
  await stopAll();
  await shutDownFaces();
});

const M = "/v1/services/studio/matching/jobs";
const groups = (token: string, id: number) => call(groupsRoute, "GET", `${M}/${id}/groups`, { token, params: { matchJobId: String(id) } });
const decide = (token: string, id: number, group: string, body: unknown) =>
  call(groupRoute, "PATCH", `${M}/${id}/groups/${group}`, { token, params: { matchJobId: String(id), group }, body });

/** The fields a 400 names (the error envelope's details). */
const fieldsOf = (res: { json: { details?: { fields?: { field: string }[] } } }) => res.json.details?.fields?.map((f) => f.field) ?? [];

type Group = { group: string; open_faces: number; suggestion: { subject_id: string; reason: string } | null; faces: { id: string; filename: string; open: boolean; decision: string; subject: { subject_id: string } | null }[] };

describe("review by group", () => {
  let token: string;
  let matchJobId: number;
  let biden: { id: string };
  let bidenGroup: Group;

  beforeAll(async () => {
    ({ token } = await testAccount({ tokens: 200 }));
    const agency = await h.makeAgency(token, "Group School");
    await h.subjectWithPhoto(token, agency.id, "S-OBAMA", "Barack Obama", faceFixture("obama.jpg"));
    const added = await h.addSubject(token, agency.id, { student_id: "S-BIDEN", name: "Joe Biden" });
    expect(added.status, added.text).toBe(201);
    biden = added.json;
    expect((await h.buildReferences(token, { agency_id: agency.id })).status).toBe(200);
    const names = ["obama2.jpg", "biden.jpg", "obama3.jpg", "biden2.jpg", "obama_and_biden.jpg"];
    const { jobId } = await h.makeJobWithPhotos(token, agency.id, names.map((name) => ({ name, bytes: faceFixture(name) })));
    const started = await h.startMatchJob(token, { agency_id: agency.id, job_id: jobId });
    expect(started.status, started.text).toBe(200);
    matchJobId = started.json.match_job_id;
    expect(await h.pollMatchJob(token, matchJobId)).toMatchObject({ status: "completed", failed: 0 });
  });

  it("groups the faces the engine could not file, one group per person, and keeps no embedding", async () => {
    const res = await groups(token, matchJobId);
    expect(res.status, res.text).toBe(200);
    // Obama's faces are all filed (no group to review); Biden's three are one group.
    expect(res.json.meta.total, res.text).toBe(1);
    bidenGroup = res.json.data[0];
    expect(bidenGroup.faces.map((f) => f.filename).sort()).toEqual(["biden.jpg", "biden2.jpg", "obama_and_biden.jpg"]);
    expect(bidenGroup).toMatchObject({ open_faces: 3, suggestion: null });
    expect(bidenGroup.faces.every((f) => f.open && f.decision === "unmatched")).toBe(true);
    const db = await getDb();
    const rows = await db.select({ embedding: matchFaces.embedding, group: matchFaces.faceGroup }).from(matchFaces).where(eq(matchFaces.matchJobId, matchJobId));
    expect(rows.length).toBeGreaterThanOrEqual(6);
    expect(rows.every((r) => r.embedding === null && r.group !== null)).toBe(true);
    // Obama's four faces share a group of their own.
    const obama = (await h.getResults(token, matchJobId)).json.data.flatMap((p: { faces: { decision: string }[] }) => p.faces).filter((f: { decision: string }) => f.decision === "matched");
    expect(obama.length).toBe(3);
  });

  it("offers the group to the child a reviewer filed one of its faces under", async () => {
    const first = bidenGroup.faces[0]!;
    const one = await h.review(token, matchJobId, first.id, { action: "assign", subject_id: biden.id });
    expect(one.status, one.text).toBe(200);
    const res = await groups(token, matchJobId);
    expect(res.json.data[0]).toMatchObject({ group: bidenGroup.group, open_faces: 2, suggestion: { subject_id: biden.id, reason: "filed" } });
    expect(await h.review(token, matchJobId, first.id, { action: "reset" }).then((r) => r.status)).toBe(200);
  });

  it("files every open face of the group with one decision, and undoes it", async () => {
    const filed = await decide(token, matchJobId, bidenGroup.group, { action: "assign", subject_id: biden.id });
    expect(filed.status, filed.text).toBe(200);
    expect([...filed.json.face_ids].sort()).toEqual(bidenGroup.faces.map((f) => f.id).sort());
    // Every photo is now filed: the group photo under both of them.
    expect(filed.json.counts).toMatchObject({ matched: 5, needs_review: 0, unmatched: 0 });
    const bidenPhotos = await h.getResults(token, matchJobId, `?subject_id=${biden.id}`);
    expect(bidenPhotos.json.data.map((p: { filename: string }) => p.filename).sort()).toEqual(["biden.jpg", "biden2.jpg", "obama_and_biden.jpg"]);
    expect((await groups(token, matchJobId)).json.meta.total).toBe(0);

    const undone = await decide(token, matchJobId, bidenGroup.group, { action: "reset", face_ids: filed.json.face_ids });
    expect(undone.status, undone.text).toBe(200);
    expect(undone.json.counts).toMatchObject({ matched: 3, unmatched: 2 });
    expect((await groups(token, matchJobId)).json.data[0]).toMatchObject({ group: bidenGroup.group, open_faces: 3 });
  });

  it("never changes a face a reviewer already decided", async () => {
    const kept = bidenGroup.faces[1]!;
    expect((await h.review(token, matchJobId, kept.id, { action: "nobody" })).status).toBe(200);
    const filed = await decide(token, matchJobId, bidenGroup.group, { action: "assign", subject_id: biden.id });
    expect(filed.json.face_ids).not.toContain(kept.id);
    expect(filed.json.face_ids.length).toBe(2);
    const faces = (await h.getResults(token, matchJobId)).json.data.flatMap((p: { faces: { id: string; review: string }[] }) => p.faces);
    expect(faces.find((f: { id: string }) => f.id === kept.id)).toMatchObject({ review: "nobody" });
  });

  it("answers bad input with the field named, and 404 for what is not this job's", async () => {
    expect(fieldsOf(await decide(token, matchJobId, bidenGroup.group, { action: "assign" }))).toEqual(["subject_id"]);
    expect(fieldsOf(await decide(token, matchJobId, bidenGroup.group, { action: "reset", face_ids: [] }))).toEqual(["face_ids"]);
    expect((await decide(token, matchJobId, bidenGroup.group, { action: "nobody", extra: 1 })).status).toBe(400);
    expect(fieldsOf(await decide(token, matchJobId, "g".repeat(65), { action: "nobody" }))).toEqual(["group"]);
    const notInGroup = await decide(token, matchJobId, bidenGroup.group, { action: "reset", face_ids: ["mfc_nope"] });
    expect([notInGroup.status, notInGroup.json.error]).toEqual([400, "NOT_IN_GROUP"]);
    expect((await decide(token, matchJobId, "fgr_nope", { action: "nobody" })).status).toBe(404);
    expect((await decide(token, matchJobId, bidenGroup.group, { action: "assign", subject_id: "sub_other" })).status).toBe(404);
    const other = await testAccount({ tokens: 0 });
    expect((await groups(other.token, matchJobId)).status).toBe(404);
    expect((await decide(other.token, matchJobId, bidenGroup.group, { action: "nobody" })).status).toBe(404);
  });
});
