import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { unzipSync } from "fflate";
import Papa from "papaparse";
import sharp from "sharp";
import { getDb } from "@/lib/foundation/db/client";
import { matchJobs } from "@/lib/foundation/db/schema";
import { shutDownFaces } from "@/lib/engines/ml/faces";
import * as zipRoute from "@/app/v1/services/studio/matching/jobs/[matchJobId]/export.zip/route";
import { call, testAccount } from "../http";
import { startTestRunner, stopAll } from "../jobs/bg-remove-harness";
import * as h from "../jobs/matching-harness";
import { faceFixture } from "../support/face-fixtures";

// The match job's ZIP for the lab through its route: the real face engine (one model load),
// the embedded runner, real storage. obama*.jpg are Barack Obama, biden*.jpg Joe Biden,
// obama_and_biden.jpg both, coffee.jpg no one (MIT, ageitgey/face_recognition).
beforeAll(() => startTestRunner());
afterAll(async () => {
  await stopAll();
  await shutDownFaces();
});

const ZIP = (id: number) => `/v1/services/studio/matching/jobs/${id}/export.zip`;
const getZip = (token: string, id: number) => call(zipRoute, "GET", ZIP(id), { token, params: { matchJobId: String(id) } });

/** The ZIP as bytes (call() reads answers as text), its entries unpacked. */
async function readZip(token: string, id: number) {
  const res = await zipRoute.GET(new Request(`http://localhost:3000${ZIP(id)}`, { headers: { authorization: `Bearer ${token}` } }), { params: Promise.resolve({ matchJobId: String(id) }) });
  expect(res.status).toBe(200);
  return { headers: res.headers, entries: unzipSync(new Uint8Array(await res.arrayBuffer())) };
}

const isJpeg = (b: Uint8Array) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;

describe("a match job's ZIP of each child's photos", () => {
  let token: string;
  let agencyId: number;
  let matchJobId: number;
  const uploaded: Record<string, Buffer> = {};

  it("names every matched child's photos {student_id}_{last}_{first}_{nn}.jpg in job order, a group photo under each child, the CSV inside", async () => {
    ({ token } = await testAccount({ tokens: 200 }));
    agencyId = (await h.makeAgency(token)).id;
    // Names as rosters write them: a middle name, "Last, First" with an accent, an id with a space.
    const obama = await h.subjectWithPhoto(token, agencyId, "S-1", "Barack Hussein Obama", faceFixture("obama.jpg"));
    const biden = await h.subjectWithPhoto(token, agencyId, "S 2", "Biden, Joé", faceFixture("biden.jpg"));
    expect((await h.buildReferences(token, { agency_id: agencyId })).json).toMatchObject({ embeddings_total: 2 });

    for (const name of ["obama2.jpg", "obama-1080p.jpg", "biden2.jpg", "obama_and_biden.jpg", "coffee.jpg"]) uploaded[name] = faceFixture(name);
    // A PNG photo goes to the lab as a JPEG.
    uploaded["obama3.png"] = await sharp(faceFixture("obama3.jpg")).png().toBuffer();
    const job = await h.makeJobWithPhotos(token, agencyId, Object.entries(uploaded).map(([name, bytes]) => ({ name, bytes })));
    const started = await h.startMatchJob(token, { agency_id: agencyId, job_id: job.jobId });
    expect(started.status).toBe(200);
    matchJobId = started.json.match_job_id;
    expect(await h.pollMatchJob(token, matchJobId)).toMatchObject({ status: "completed", failed: 0 });

    const by = Object.fromEntries((await h.allResults(token, matchJobId)).map((r) => [r.filename, r]));
    // The reviewer says nobody for one of Obama's photos (left out) and confirms Biden's older photo,
    // which the engine sends to review or matches depending on a few hundredths (in either way).
    expect((await h.review(token, matchJobId, by["obama-1080p.jpg"].faces[0].id, { action: "nobody" })).status).toBe(200);
    expect((await h.review(token, matchJobId, by["biden2.jpg"].faces[0].id, { action: "assign", subject_id: biden.id })).status).toBe(200);
    expect(by["obama_and_biden.jpg"].faces.filter((f: { decision: string }) => f.decision === "matched").map((f: { subject_id: string }) => f.subject_id).sort()).toEqual([obama.id, biden.id].sort());

    const { headers, entries } = await readZip(token, matchJobId);
    expect(headers.get("content-type")).toBe("application/zip");
    expect(headers.get("content-disposition")).toBe(`attachment; filename="match-job-${matchJobId}.zip"`);
    const expected: Record<string, string> = {
      "S-1_Obama_BarackHussein_01.jpg": "obama2.jpg",
      "S2_Biden_Joe_01.jpg": "biden2.jpg",
      "S-1_Obama_BarackHussein_02.jpg": "obama_and_biden.jpg",
      "S2_Biden_Joe_02.jpg": "obama_and_biden.jpg",
      "S-1_Obama_BarackHussein_03.jpg": "obama3.png",
    };
    const csvName = `match-job-${matchJobId}.csv`;
    expect(Object.keys(entries).sort()).toEqual([csvName, ...Object.keys(expected)].sort());
    for (const [entry, source] of Object.entries(expected)) {
      const bytes = entries[entry]!;
      expect(isJpeg(bytes), entry).toBe(true);
      expect((await sharp(bytes).metadata()).format, entry).toBe("jpeg");
      // JPEG originals as uploaded (no second compression); the PNG converted, same size.
      if (source.endsWith(".jpg")) expect(Buffer.from(bytes).equals(uploaded[source]!), entry).toBe(true);
      else expect((await sharp(bytes).metadata()).width).toBe((await sharp(uploaded[source]!).metadata()).width);
    }
    // The CSV inside is the job's CSV export, byte for byte.
    const csv = new TextDecoder().decode(entries[csvName]);
    expect(csv).toBe((await h.exportCsv(token, matchJobId)).text);
    const rows = Papa.parse<Record<string, string>>(csv, { header: true }).data;
    expect(rows.find((r) => r.file_name === "obama-1080p.jpg")).toMatchObject({ decision: "unmatched", decided_by: "reviewer (nobody)" });
    expect(rows.find((r) => r.file_name === "coffee.jpg")).toMatchObject({ decision: "no_face" });
  }, 240_000);

  it("a job with nothing matched is a valid ZIP holding the CSV alone; a running job is a 409; another account's job a 404", async () => {
    // At 0.99 no photo reaches the score a match needs: Obama's face waits for review, the cup has none.
    const job = await h.makeJobWithPhotos(token, agencyId, [
      { name: "obama2-again.jpg", bytes: faceFixture("obama2.jpg") },
      { name: "coffee.jpg", bytes: faceFixture("coffee.jpg") },
    ]);
    const started = await h.startMatchJob(token, { agency_id: agencyId, job_id: job.jobId, threshold: 0.99 });
    expect(started.status).toBe(200);
    const id = started.json.match_job_id as number;
    expect(await h.pollMatchJob(token, id)).toMatchObject({ status: "completed", matched: 0, needs_review: 1, unmatched: 1 });
    const { entries } = await readZip(token, id);
    expect(Object.keys(entries)).toEqual([`match-job-${id}.csv`]);
    const rows = Papa.parse<Record<string, string>>(new TextDecoder().decode(entries[`match-job-${id}.csv`]), { header: true }).data;
    expect(rows.map((r) => [r.file_name, r.decision])).toEqual([
      ["obama2-again.jpg", "needs_review"],
      ["coffee.jpg", "no_face"],
    ]);

    // While it runs a lab would get half the day: 409 naming why.
    const db = await getDb();
    await db.update(matchJobs).set({ status: "running" }).where(eq(matchJobs.id, id));
    const running = await getZip(token, id);
    expect(running.status).toBe(409);
    expect(running.json).toMatchObject({ error: "MATCH_JOB_NOT_FINISHED" });
    await db.update(matchJobs).set({ status: "completed" }).where(eq(matchJobs.id, id));

    const stranger = await testAccount();
    expect((await getZip(stranger.token, matchJobId)).status).toBe(404);
    expect((await getZip(token, 2147483600)).status).toBe(404);
    expect((await getZip(token, "x" as unknown as number)).status).toBe(400);
  }, 180_000);
});
