import fs from "node:fs";
import { zbar } from "../support/zbar";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as agenciesRoute from "@/app/v1/services/studio/agencies/route";
import * as jobsRoute from "@/app/v1/services/studio/agencies/[agencyId]/jobs/route";
import * as qrSortRoute from "@/app/v1/services/studio/agencies/[agencyId]/jobs/[jobId]/qr-sort/route";
import * as resultsRoute from "@/app/v1/services/studio/qr-sort/[taskId]/results/route";
import * as frameRoute from "@/app/v1/services/studio/qr-sort/[taskId]/results/[fileId]/route";
import * as csvRoute from "@/app/v1/services/studio/qr-sort/[taskId]/export/route";
import * as labRoute from "@/app/v1/services/studio/qr-sort/[taskId]/lab-zip/route";
import * as pspaRoute from "@/app/v1/services/studio/qr-sort/[taskId]/pspa/route";
import * as studioTasksRoute from "@/app/v1/services/studio/jobs/route";
import * as endpointsRoute from "@/app/v1/webhook-endpoints/route";
import * as importRoute from "@/app/v1/services/studio/agencies/[agencyId]/subjects/import/route";
import * as subjectsRoute from "@/app/v1/services/studio/agencies/[agencyId]/subjects/route";
import sharp from "sharp";
import { shutDownFaces } from "@/lib/engines/ml/faces";
import Papa from "papaparse";
import { unzipSync } from "fflate";
import { getDb } from "@/lib/foundation/db/client";
import { qrSortTasks, webhookDeliveries } from "@/lib/foundation/db/schema";
import { newId } from "@/lib/foundation/ids";
import { resetConfig } from "@/lib/foundation/config";
import { finishSort } from "@/lib/services/qr-sort/sort-task";
import { shutDownCardReader } from "@/lib/engines/imaging/card-reader/read-cards";
import { qrPayload } from "@/lib/services/qr/payload";
import { call, testAccount } from "../http";
import { balanceOf, startTestRunner, stopAll } from "../jobs/bg-remove-harness";
import { getTask, pollTask } from "../jobs/face-crop-harness";
import { addSubject, makeJobWithPhotos } from "../jobs/matching-harness";
import * as matching from "../jobs/matching-harness";
import { faceFixture } from "../support/face-fixtures";
import { bulkQrCards, cameraFrame, captureIso, plainQrCard, type FrameSpec } from "../support/picture-day";

// QR sorting end to end through the routes: cards from our own Bulk QR PDF held
// up in real photos by two cameras (and one frame with no EXIF time), uploaded
// out of order, read by the card reader's worker thread in the embedded job
// runner, filed by the rules, corrected by hand. zbarimg, where installed,
// reads the card frames as an independent decoder.
beforeAll(() => startTestRunner());
afterAll(async () => {
  await stopAll();
  await shutDownCardReader();
  await shutDownFaces();
});

const S = "/v1/services/studio";
const JOB_REF = "PICTURE-DAY-2026";
const ROSTER = [
  { student_id: "S1", name: "Ann Archer" },
  { student_id: "S2", name: "Ben Brook" },
  { student_id: "S3", name: "Cat Crane" },
  { student_id: "S4", name: "Dan Drew" },
  { student_id: "S5", name: "Eve Eden" },
];
/** The roster as the school sends it, with the fields a yearbook's PSPA index carries. */
const ROSTER_CSV = [
  "student_id,name,grade,homeroom,teacher,period,track,department,title",
  "S1,Ann Archer,4,201,Ms. Jameson,1,,,",
  "S2,Ben Brook,5,202,Mr. Stephens,2,A,,",
  "S3,Cat Crane,5,202,Mr. Stephens,2,A,,",
  "S4,Dan Drew,12,,,,,Faculty,Homeroom Teacher",
  '"S5","Eden, Eve",K,101,Mrs. Lee,,,,',
].join("\n");

const startSort = (token: string, agencyId: number, jobId: number) =>
  call(qrSortRoute, "POST", `${S}/agencies/${agencyId}/jobs/${jobId}/qr-sort`, { token, params: { agencyId: String(agencyId), jobId: String(jobId) } });
const getResults = (token: string, taskId: string, query = "") => call(resultsRoute, "GET", `${S}/qr-sort/${taskId}/results${query}`, { token, params: { taskId } });
const reassign = (token: string, taskId: string, fileId: number | string, body: unknown) =>
  call(frameRoute, "PATCH", `${S}/qr-sort/${taskId}/results/${fileId}`, { token, params: { taskId, fileId: String(fileId) }, body });

async function makeAgency(token: string) {
  const res = await call(agenciesRoute, "POST", `${S}/agencies`, { token, body: { name: "Maple School", agency_type: "school" } });
  expect(res.status, res.text).toBe(201);
  return res.json.id as number;
}

async function allResults(token: string, taskId: string, query = "") {
  const out: any[] = [];
  for (let page = 1; ; page++) {
    const res = await getResults(token, taskId, `?limit=5&page=${page}${query}`);
    expect(res.status, res.text).toBe(200);
    out.push(...res.json.data);
    if (!res.json.links.next) return out;
  }
}

describe("QR sort of a picture day", () => {
  let token: string;
  let agencyId: number;
  let taskId: string;
  let subjectIds: Record<string, string>;
  let fileIds: Record<string, number>;
  let byName: Record<string, any>;
  let hookId: string;
  const frames: Record<string, Buffer> = {};
  const expectedCard: Record<string, string> = {};

  it("reads the cards and files every frame in capture order, by the studio's rules", async () => {
    ({ token } = await testAccount({ tokens: 100 }));
    agencyId = await makeAgency(token);
    // A webhook endpoint on a local address the test allows (nothing listens: deliveries are only queued).
    process.env.FETCH_ALLOW_HOSTS = "127.0.0.1";
    resetConfig();
    const hook = await call(endpointsRoute, "POST", "/v1/webhook-endpoints", { token, body: { url: "http://127.0.0.1:9/hook", events: ["qr_sort.completed", "qr_sort.failed"] } });
    delete process.env.FETCH_ALLOW_HOSTS;
    resetConfig();
    expect(hook.status, hook.text).toBe(201);
    hookId = hook.json.id;
    const imported = await call(importRoute, "POST", `${S}/agencies/${agencyId}/subjects/import`, { token, params: { agencyId: String(agencyId) }, rawBody: ROSTER_CSV, headers: { "content-type": "text/csv" } });
    expect(imported.status, imported.text).toBe(200);
    const listed = await call(subjectsRoute, "GET", `${S}/agencies/${agencyId}/subjects?limit=100`, { token, params: { agencyId: String(agencyId) } });
    subjectIds = Object.fromEntries(listed.json.data.map((s: any) => [s.student_id, s.id]));
    expect(listed.json.data.find((s: any) => s.student_id === "S4")).toMatchObject({ grade: "12", homeroom: null, teacher: null, department: "Faculty", title: "Homeroom Teacher" });
    // S9's card was printed, but S9 is not on the roster.
    const cards = await bulkQrCards(token, JOB_REF, [...ROSTER, { student_id: "S9", name: "Zed Zane" }]);
    const balanceAfterCards = await balanceOf(token);

    const plan: FrameSpec[] = [
      { name: "A_0001.jpg", seconds: 0, photo: 5 },
      { name: "A_0002.jpg", seconds: 10, card: cards.get("S1"), fraction: 0.12, angle: 10, blur: 0.6, quality: 70 },
      { name: "A_0003.jpg", seconds: 12.25, photo: 0 },
      { name: "A_0004.jpg", seconds: 13.5, photo: 2 },
      { name: "B_0001.jpg", seconds: 20, card: cards.get("S2"), fraction: 0.1, angle: -15, orientation: 6 },
      { name: "B_0002.jpg", seconds: 22, photo: 1 },
      { name: "B_0003.jpg", seconds: null, photo: 3 },
      { name: "A_0005.jpg", seconds: 30, card: cards.get("S3"), fraction: 0.08, angle: 5, width: 1400 },
      { name: "A_0006.jpg", seconds: 40, card: cards.get("S9"), fraction: 0.15, blur: 1 },
      { name: "A_0007.jpg", seconds: 41, photo: 4 },
      { name: "A_0008.jpg", seconds: 50, card: await plainQrCard("S4"), fraction: 0.1, angle: 20 },
      { name: "A_0009.jpg", seconds: 51, photo: 6 },
      { name: "A_0010.jpg", seconds: 60, card: cards.get("S4"), fraction: 0.06, width: 1600, quality: 75 },
      { name: "A_0011.jpg", seconds: 61, photo: 0 },
      { name: "A_0012.jpg", seconds: 70, card: cards.get("S5"), fraction: 0.05, angle: -8, width: 1600, quality: 60 },
      { name: "A_0013.jpg", seconds: 71.5, photo: 7 },
      { name: "B_0004.jpg", seconds: 72, photo: 1, orientation: 6 },
    ];
    for (const p of plan) frames[p.name] = await cameraFrame(p);
    Object.assign(expectedCard, { "A_0002.jpg": "S1", "B_0001.jpg": "S2", "A_0005.jpg": "S3", "A_0006.jpg": "S9", "A_0008.jpg": "S4", "A_0010.jpg": "S4", "A_0012.jpg": "S5" });
    // Uploaded out of capture order: the order comes from EXIF, not from the upload.
    const uploadOrder = [...plan].reverse().sort((a, b) => (a.name.length * 7 + a.name.charCodeAt(5)) % 5 - (b.name.length * 7 + b.name.charCodeAt(5)) % 5);
    const { jobId, fileIds: ids } = await makeJobWithPhotos(token, agencyId, uploadOrder.map((p) => ({ name: p.name, bytes: frames[p.name]! })));
    fileIds = Object.fromEntries(uploadOrder.map((p, i) => [p.name, ids[i]!]));

    const accepted = await startSort(token, agencyId, jobId);
    expect(accepted.status, accepted.text).toBe(202);
    expect(accepted.json).toMatchObject({ type: "qr_sort", status: "queued", agency_id: agencyId, job_id: jobId, total_files: plan.length });
    taskId = accepted.json.task_id;
    expect(accepted.json.poll_url).toMatch(new RegExp(`/v1/services/studio/jobs/${taskId}$`));
    const task = await pollTask(token, taskId, 240_000);
    expect(task.status, JSON.stringify(task)).toBe("completed");
    expect(task).toMatchObject({ type: "qr_sort", total_files: plan.length, progress: { current: plan.length, total: plan.length, percentage: 100 } });
    expect(await balanceOf(token)).toBe(balanceAfterCards); // free

    const results = await allResults(token, taskId);
    expect(results.map((r) => r.filename)).toEqual([
      "A_0001.jpg",
      "A_0002.jpg",
      "A_0003.jpg",
      "A_0004.jpg",
      "B_0001.jpg",
      "B_0002.jpg",
      "B_0003.jpg", // no EXIF time (stripped by an editor): follows B_0002, its file-name predecessor
      "A_0005.jpg",
      "A_0006.jpg",
      "A_0007.jpg",
      "A_0008.jpg",
      "A_0009.jpg",
      "A_0010.jpg",
      "A_0011.jpg",
      "A_0012.jpg",
      "A_0013.jpg",
      "B_0004.jpg",
    ]);
    expect(results.map((r) => r.sequence)).toEqual(results.map((_, i) => i));
    byName = Object.fromEntries(results.map((r) => [r.filename, r]));
    const filed = (name: string) => [byName[name].role, byName[name].student_id, byName[name].subject_id];
    expect(filed("A_0001.jpg")).toEqual(["before_first_card", null, null]);
    expect(filed("A_0002.jpg")).toEqual(["card", "S1", subjectIds.S1]);
    expect(filed("A_0003.jpg")).toEqual(["subject", "S1", subjectIds.S1]);
    expect(filed("A_0004.jpg")).toEqual(["subject", "S1", subjectIds.S1]);
    expect(filed("B_0001.jpg")).toEqual(["card", "S2", subjectIds.S2]);
    expect(filed("B_0002.jpg")).toEqual(["subject", "S2", subjectIds.S2]);
    expect(filed("B_0003.jpg")).toEqual(["subject", "S2", subjectIds.S2]);
    expect(filed("A_0005.jpg")).toEqual(["card", "S3", subjectIds.S3]);
    expect(filed("A_0006.jpg")).toEqual(["card", "S9", null]);
    expect(filed("A_0007.jpg")).toEqual(["unknown_card", "S9", null]);
    expect(filed("A_0008.jpg")).toEqual(["card", "S4", subjectIds.S4]);
    expect(filed("A_0009.jpg")).toEqual(["subject", "S4", subjectIds.S4]);
    expect(filed("A_0010.jpg")).toEqual(["card", "S4", subjectIds.S4]);
    expect(filed("A_0011.jpg")).toEqual(["subject", "S4", subjectIds.S4]);
    expect(filed("A_0012.jpg")).toEqual(["card", "S5", subjectIds.S5]);
    expect(filed("A_0013.jpg")).toEqual(["subject", "S5", subjectIds.S5]);
    expect(filed("B_0004.jpg")).toEqual(["subject", "S5", subjectIds.S5]);

    expect(byName["A_0002.jpg"].card_payload).toBe(qrPayload(JOB_REF, "S1"));
    expect(byName["A_0008.jpg"].card_payload).toBe("S4");
    expect(byName["A_0003.jpg"]).toMatchObject({ card_payload: null, name: "Ann Archer", file_id: fileIds["A_0003.jpg"], captured_at: captureIso(12.25), review: [], manual: false });
    expect(byName["B_0001.jpg"].captured_at).toBe(captureIso(20));
    expect(byName["B_0003.jpg"]).toMatchObject({ captured_at: null, review: ["no_capture_time"] });
    expect(byName["A_0001.jpg"].review).toEqual(["before_first_card"]);
    expect(byName["A_0007.jpg"].review).toEqual(["unknown_card"]);
    expect(byName["A_0003.jpg"].thumbnail_url).toMatch(/^http/);

    expect(task.summary).toEqual({ cards: 7, subjects_photographed: 5, subject_frames: 8, before_first_card: 1, unknown_card: 1, needs_review: 4, corrected_by_hand: 0 });
    expect(task.warnings.map((w: any) => [w.code, w.student_id, w.file_ids])).toEqual([
      ["card_without_portraits", "S3", [fileIds["A_0005.jpg"]]],
      ["unknown_card", "S9", [fileIds["A_0006.jpg"]]],
      ["card_repeated", "S4", [fileIds["A_0008.jpg"], fileIds["A_0010.jpg"]]],
    ]);
  }, 300_000);

  it("agrees with zbarimg, an independent decoder, on the card frames it can read, and neither sees a card in the portraits", (ctx) => {
    if (!fs.existsSync("/usr/bin/zbarimg")) ctx.skip("zbarimg is not installed (/usr/bin/zbarimg): apt-get install zbar-tools");
    let read = 0;
    for (const [name, bytes] of Object.entries(frames)) {
      const found = zbar(bytes)!;
      if (name === "A_0008.jpg") expect(found.every((t) => t === "S4")).toBe(true);
      else if (expectedCard[name]) expect(found.every((t) => t === qrPayload(JOB_REF, expectedCard[name]!)), `${name}: ${found}`).toBe(true);
      else expect(found, name).toEqual([]);
      if (expectedCard[name] && found.length > 0) read++;
    }
    console.log(`zbarimg read ${read} of ${Object.keys(expectedCard).length} card frames; the card reader read all of them`);
    expect(read).toBeGreaterThanOrEqual(3);
  });

  it("is listed with the job's sorts and in the studio tasks list, and told to webhooks once, completed or failed", async () => {
    const task = (await getTask(token, taskId)).json;
    const jobSorts = await call(qrSortRoute, "GET", `${S}/agencies/${agencyId}/jobs/${task.job_id}/qr-sort`, { token, params: { agencyId: String(agencyId), jobId: String(task.job_id) } });
    expect(jobSorts.status, jobSorts.text).toBe(200);
    expect(jobSorts.json).toMatchObject({ data: [task], meta: { total: 1 } });
    const list = (query: string) => call(studioTasksRoute, "GET", `/v1/services/studio/jobs${query}`, { token });
    expect((await list("")).json).toMatchObject({ data: [{ type: "qr_sort", task_id: taskId, status: "completed", summary: task.summary }], meta: { total: 1 } });
    expect((await list("?type=qr_sort&status=completed")).json.meta.total).toBe(1);
    expect((await list("?type=face_crop")).json).toMatchObject({ data: [], meta: { total: 0 } });
    const bad = await list("?type=crop");
    expect(bad.status).toBe(400);
    expect(bad.text).toContain("type");

    const db = await getDb();
    const delivered = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, hookId));
    expect(delivered.map((d) => [d.eventType, (d.payload.data as any).task_id, (d.payload.data as any).summary])).toEqual([["qr_sort.completed", taskId, task.summary]]);
    // A sort that fails (as the job's onFailure does), finished twice: one qr_sort.failed.
    const failedId = newId("task");
    const [done] = await db.select().from(qrSortTasks).where(eq(qrSortTasks.id, taskId));
    await db.insert(qrSortTasks).values({ id: failedId, accountId: done!.accountId, agencyId, jobId: task.job_id, status: "running", filesTotal: 3 });
    await Promise.all([finishSort(db, failedId, "failed", "The sort ran out of time."), finishSort(db, failedId, "failed", "The sort ran out of time.")]);
    expect((await getTask(token, failedId)).json).toMatchObject({ status: "failed", error: "The sort ran out of time." });
    const failed = (await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, hookId))).filter((d) => d.eventType === "qr_sort.failed");
    expect(failed.map((d) => (d.payload.data as any).task_id)).toEqual([failedId]);
    expect((await list("")).json.data.map((t: any) => [t.type, t.task_id])).toEqual([["qr_sort", failedId], ["qr_sort", taskId]]);
    expect((await finishSort(db, taskId, "completed"))?.status).toBe("completed"); // a late repeat changes nothing
    expect((await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, hookId))).length).toBe(2);
  });

  it("filters the results: what needs review, one role, one subject", async () => {
    expect((await allResults(token, taskId, "&needs_review=true")).map((r) => r.filename)).toEqual(["A_0001.jpg", "B_0003.jpg", "A_0006.jpg", "A_0007.jpg"]);
    expect((await allResults(token, taskId, "&role=card")).length).toBe(7);
    expect((await allResults(token, taskId, `&subject_id=${subjectIds.S4}`)).map((r) => r.filename)).toEqual(["A_0008.jpg", "A_0009.jpg", "A_0010.jpg", "A_0011.jpg"]);
  });

  it("PATCH files a frame under another subject (free), or under nobody, and it leaves review", async () => {
    const before = await balanceOf(token);
    const moved = await reassign(token, taskId, fileIds["A_0001.jpg"]!, { subject_id: subjectIds.S1 });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.json).toMatchObject({ file_id: fileIds["A_0001.jpg"], role: "subject", subject_id: subjectIds.S1, student_id: "S1", name: "Ann Archer", review: [], manual: true });
    expect((await allResults(token, taskId, `&subject_id=${subjectIds.S1}`)).map((r) => r.filename)).toEqual(["A_0001.jpg", "A_0002.jpg", "A_0003.jpg", "A_0004.jpg"]);
    const nobody = await reassign(token, taskId, fileIds["A_0007.jpg"]!, { subject_id: null });
    expect(nobody.status, nobody.text).toBe(200);
    expect(nobody.json).toMatchObject({ role: "unknown_card", subject_id: null, student_id: null, review: [], manual: true });
    expect((await allResults(token, taskId, "&needs_review=true")).map((r) => r.filename)).toEqual(["B_0003.jpg", "A_0006.jpg"]);
    expect(await balanceOf(token)).toBe(before);
  });

  it("exports a CSV of every photo and a lab ZIP of every subject's photos named {student_id}_{last}_{first}_{nn}.jpg", async () => {
    const csv = await call(csvRoute, "GET", `${S}/qr-sort/${taskId}/export`, { token, params: { taskId } });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toMatch(/^text\/csv/);
    const table = Papa.parse<Record<string, string>>(csv.text, { header: true, skipEmptyLines: true });
    expect(table.meta.fields).toEqual(["file_name", "sequence", "captured_at", "subject", "student_id", "role", "decided_by", "review"]);
    expect(table.data.map((r) => r.file_name)).toEqual(Object.keys(byName));
    expect(table.data[0]).toMatchObject({ file_name: "A_0001.jpg", sequence: "0", captured_at: captureIso(0), subject: "Ann Archer", student_id: "S1", role: "subject", decided_by: "photographer", review: "" });
    expect(table.data.find((r) => r.file_name === "B_0003.jpg")).toMatchObject({ subject: "Ben Brook", role: "subject", decided_by: "qr_card", review: "no_capture_time" });
    expect(table.data.find((r) => r.file_name === "A_0006.jpg")).toMatchObject({ subject: "", student_id: "S9", role: "card", review: "unknown_card" });

    const res = await labRoute.GET(new Request(`http://localhost:3000${S}/qr-sort/${taskId}/lab-zip`, { headers: { authorization: `Bearer ${token}` } }), { params: Promise.resolve({ taskId }) });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/zip");
    const entries = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const expected: Record<string, string> = {
      "S1_Archer_Ann_01.jpg": "A_0001.jpg",
      "S1_Archer_Ann_02.jpg": "A_0003.jpg",
      "S1_Archer_Ann_03.jpg": "A_0004.jpg",
      "S2_Brook_Ben_01.jpg": "B_0002.jpg",
      "S2_Brook_Ben_02.jpg": "B_0003.jpg",
      "S4_Drew_Dan_01.jpg": "A_0009.jpg",
      "S4_Drew_Dan_02.jpg": "A_0011.jpg",
      "S5_Eden_Eve_01.jpg": "A_0013.jpg", // "Eden, Eve" on the roster: last name first
      "S5_Eden_Eve_02.jpg": "B_0004.jpg",
    };
    expect(Object.keys(entries).sort()).toEqual(Object.keys(expected).sort());
    // The photographer's JPEGs as they were uploaded: no second compression.
    for (const [entry, source] of Object.entries(expected)) expect(Buffer.from(entries[entry]!).equals(frames[source]!), entry).toBe(true);
  });

  it("exports a PSPA package: INDEX.TXT read back, every portrait it names present, all of one size, 640 × 800", async () => {
    const res = await pspaRoute.GET(new Request(`http://localhost:3000${S}/qr-sort/${taskId}/pspa`, { headers: { authorization: `Bearer ${token}` } }), { params: Promise.resolve({ taskId }) });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/zip");
    const entries = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const index = new TextDecoder().decode(entries["INDEX.TXT"]);
    expect(index.endsWith("\r\n")).toBe(true);
    const rows = index.trimEnd().split("\r\n").map((l) => l.split("\t"));
    expect(rows.every((r) => r.length === 13)).toBe(true);
    // One line per subject with a portrait, in capture order; Cat (card, no portrait) and the unknown card have none.
    expect(rows.map((r) => [r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9], r[10], r[11]])).toEqual([
      ["Maple School", "IMAGES01", "00000001.jpg", "4", "Archer", "Ann", "201", "1", "Ms. Jameson", "", "", ""],
      ["Maple School", "IMAGES01", "00000002.jpg", "5", "Brook", "Ben", "202", "2", "Mr. Stephens", "A", "", ""],
      ["Maple School", "IMAGES01", "00000003.jpg", "12", "Drew", "Dan", "", "", "", "", "Faculty", "Homeroom Teacher"],
      ["Maple School", "IMAGES01", "00000004.jpg", "K", "Eden", "Eve", "101", "", "Mrs. Lee", "", "", ""],
    ]);
    for (const r of rows) {
      const bytes = entries[`${r[1]}/${r[2]}`];
      expect(bytes, `${r[1]}/${r[2]}`).toBeDefined();
      const meta = await sharp(bytes!).metadata();
      expect(meta.format).toBe("jpeg");
      expect(`${meta.width}x${meta.height}`).toBe("640x800");
      expect(r[12]).toBe("640x800");
    }
    expect(Object.keys(entries).sort()).toEqual(["IMAGES01/00000001.jpg", "IMAGES01/00000002.jpg", "IMAGES01/00000003.jpg", "IMAGES01/00000004.jpg", "INDEX.TXT", "README.TXT"]);
    expect(new TextDecoder().decode(entries["README.TXT"])).toMatch(/^PSPA package of Maple School: 4 portraits, each 640 x 800\./);
  }, 120_000);

  it("refuses a subject of another agency, a photo outside the sort and a malformed body", async () => {
    const other = await makeAgency(token);
    const stranger = (await addSubject(token, other, { student_id: "X1", name: "Other School" })).json.id;
    const wrong = await reassign(token, taskId, fileIds["A_0003.jpg"]!, { subject_id: stranger });
    expect(wrong.status).toBe(400);
    expect(wrong.json.error).toBe("SUBJECT_NOT_FOUND");
    expect((await reassign(token, taskId, 2_000_000_000, { subject_id: subjectIds.S1 })).status).toBe(404);
    for (const body of [{}, { subject_id: 5 }, { subject_id: subjectIds.S1, extra: true }]) {
      const bad = await reassign(token, taskId, fileIds["A_0003.jpg"]!, body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
    }
    expect((await getResults(token, taskId, "?role=teacher")).status).toBe(400);
    expect((await getResults(token, taskId, "?needs_review=maybe")).status).toBe(400);
  });

  it("answers 409 for the results of a sort that has not finished, and 400 for a job without photos", async () => {
    const db = await getDb();
    await db.update(qrSortTasks).set({ status: "running" }).where(eq(qrSortTasks.id, taskId));
    try {
      const early = await getResults(token, taskId);
      expect(early.status).toBe(409);
      expect(early.json.error).toBe("SORT_NOT_FINISHED");
      expect((await reassign(token, taskId, fileIds["A_0003.jpg"]!, { subject_id: null })).status).toBe(409);
    } finally {
      await db.update(qrSortTasks).set({ status: "completed" }).where(eq(qrSortTasks.id, taskId));
    }
    const empty = await call(jobsRoute, "POST", `${S}/agencies/${agencyId}/jobs`, { token, params: { agencyId: String(agencyId) }, body: { name: "Empty", icp_type: "school" } });
    const res = await startSort(token, agencyId, empty.json.id);
    expect(res.status).toBe(400);
    expect(res.json.error).toBe("JOB_HAS_NO_PHOTOS");
  });

  it("is another account's 404 everywhere: the job, the task, the results, a correction", async () => {
    const { token: other } = await testAccount({ tokens: 10 });
    const jobId = (await getTask(token, taskId)).json.job_id;
    expect((await startSort(other, agencyId, jobId)).status).toBe(404);
    expect((await getTask(other, taskId)).status).toBe(404);
    expect((await getResults(other, taskId)).status).toBe(404);
    const patch = await reassign(other, taskId, fileIds["A_0003.jpg"]!, { subject_id: null });
    expect(patch.status).toBe(404);
    expect((await call(csvRoute, "GET", `${S}/qr-sort/${taskId}/export`, { token: other, params: { taskId } })).status).toBe(404);
    const pspa = await pspaRoute.GET(new Request(`http://localhost:3000${S}/qr-sort/${taskId}/pspa`, { headers: { authorization: `Bearer ${other}` } }), { params: Promise.resolve({ taskId }) });
    expect(pspa.status).toBe(404);
    const zip = await labRoute.GET(new Request(`http://localhost:3000${S}/qr-sort/${taskId}/lab-zip`, { headers: { authorization: `Bearer ${other}` } }), { params: Promise.resolve({ taskId }) });
    expect(zip.status).toBe(404);
    expect((await allResults(token, taskId)).find((r) => r.filename === "A_0003.jpg")).toMatchObject({ subject_id: subjectIds.S1, manual: false });
  });
});

describe("QR sort with face matching on for the agency", () => {
  it("sends a frame whose face clearly matches another child of the roster to review (face_disagrees), and leaves it in its run", async () => {
    const { token } = await testAccount({ tokens: 50 });
    const agency = await matching.makeAgency(token, "Face School");
    const obama = await matching.subjectWithPhoto(token, agency.id, "S-OBAMA", "Barack Obama", faceFixture("obama.jpg"));
    const biden = await matching.subjectWithPhoto(token, agency.id, "S-BIDEN", "Joe Biden", faceFixture("biden.jpg"));
    const refs = await matching.buildReferences(token, { agency_id: agency.id });
    expect(refs.status, refs.text).toBe(200);
    expect(refs.json.embeddings_total).toBe(2);
    // No EXIF times: the file-name order is the capture order. The cards sit on a photo of a cat (no face).
    const photos = [
      { name: "F1.jpg", bytes: await cameraFrame({ name: "F1.jpg", seconds: null, card: await plainQrCard("S-OBAMA"), fraction: 0.2, photo: 6 }) },
      { name: "F2.jpg", bytes: faceFixture("obama2.jpg") },
      { name: "F3.jpg", bytes: await cameraFrame({ name: "F3.jpg", seconds: null, card: await plainQrCard("S-BIDEN"), fraction: 0.2, photo: 6 }) },
      { name: "F4.jpg", bytes: faceFixture("obama3.jpg") }, // Obama's face in Biden's run
      { name: "F5.jpg", bytes: faceFixture("biden2.jpg") },
    ];
    const { jobId } = await makeJobWithPhotos(token, agency.id, photos);
    const accepted = await startSort(token, agency.id, jobId);
    expect(accepted.status, accepted.text).toBe(202);
    const task = await pollTask(token, accepted.json.task_id, 240_000);
    expect(task.status, JSON.stringify(task)).toBe("completed");
    const results = await allResults(token, accepted.json.task_id);
    expect(results.map((r) => [r.filename, r.role, r.subject_id, r.review])).toEqual([
      ["F1.jpg", "card", obama.id, []],
      ["F2.jpg", "subject", obama.id, []],
      ["F3.jpg", "card", biden.id, []],
      ["F4.jpg", "subject", biden.id, ["face_disagrees"]],
      ["F5.jpg", "subject", biden.id, []],
    ]);
    expect(task.warnings.map((w: any) => w.code)).toEqual(["no_capture_times"]);
  }, 300_000);
});
