import { eq } from "drizzle-orm";
import { unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as poseRoute from "@/app/v1/parent/yearbook-pose/route";
import * as photosRoute from "@/app/v1/parent/galleries/[galleryId]/photos/route";
import * as pspaRoute from "@/app/v1/services/studio/qr-sort/[taskId]/pspa/route";
import { getDb } from "@/lib/foundation/db/client";
import { jobFiles } from "@/lib/foundation/db/schema";
import { storage } from "@/lib/domain/storage";
import { shutDownCardReader } from "@/lib/engines/imaging/card-reader/read-cards";
import { shutDownFaces } from "@/lib/engines/ml/faces";
import { pspaPortrait } from "@/lib/services/qr-sort/pspa";
import { call, testAccount } from "../http";
import { startTestRunner, stopAll } from "../jobs/bg-remove-harness";
import { sortedPictureDay, type SortedJob } from "../support/sorted-job";
import { enterCode, listGalleries, publishGalleries, waitForPreviews } from "../support/galleries";

// The yearbook pose: a parent picks one photo of their own child in the gallery
// until the job's deadline (set at publish); after it the choice is read-only;
// the studio's PSPA export uses the chosen photo for that child, and the job's
// gallery list says who chose. Real QR sort, previews, and PSPA crop.
beforeAll(() => startTestRunner());
afterAll(async () => {
  await stopAll();
  await shutDownCardReader();
  await shutDownFaces();
});

let owner: Awaited<ReturnType<typeof testAccount>>;
let job: SortedJob;
let parents: Record<"S1" | "S2", string>;
/** Gallery photo ids by job file name, per child's own gallery, and the group gallery's. */
const photoOf: Record<string, string> = {};

const pose = (token: string) => call(poseRoute, "GET", "/v1/parent/yearbook-pose", { token });
const choose = (token: string, photoId: string) => call(poseRoute, "PUT", "/v1/parent/yearbook-pose", { token, body: { photo_id: photoId } });
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

async function fileBytes(fileId: number): Promise<Buffer> {
  const [row] = await (await getDb()).select({ key: jobFiles.storageKey }).from(jobFiles).where(eq(jobFiles.id, fileId));
  return (await storage().get(row!.key!))!.body;
}

describe("yearbook pose with a deadline, used by the PSPA export", () => {
  it("a parent picks a photo of their own child only; another child's or a group photo is a 404", async () => {
    owner = await testAccount({ tokens: 10 });
    job = await sortedPictureDay(owner.token, "Yearbook School");
    const published = await publishGalleries(owner.token, job.agencyId, job.jobId, { group_file_ids: [job.files["09.jpg"]], yearbook_deadline: inDays(7) });
    expect(published.status, published.text).toBe(200);
    const list = await waitForPreviews(owner.token, job.agencyId, job.jobId);
    const code = (s: string) => list.find((g) => g.student_id === s)!.access_code!;
    parents = { S1: (await enterCode(code("S1"))).json.token, S2: (await enterCode(code("S2"))).json.token };
    // Photo ids as each parent lists them (the files' order within a gallery is capture order).
    for (const [student, token] of Object.entries(parents)) {
      const access = await enterCode(code(student));
      for (const g of access.json.galleries) {
        const photos = await call(photosRoute, "GET", `/v1/parent/galleries/${g.id}/photos`, { token, params: { galleryId: g.id } });
        const names = g.kind === "group" ? ["09.jpg"] : job.expected[student as "S1" | "S2"];
        photos.json.data.forEach((p: { id: string }, i: number) => (photoOf[g.kind === "group" ? "group" : names[i]!] = p.id));
      }
    }
    expect((await pose(parents.S1)).json).toEqual({ photo_id: null, deadline: expect.any(String), open: true });
    for (const other of [photoOf["05.jpg"]!, photoOf.group!, "gph_nope"]) {
      const res = await choose(parents.S1, other);
      expect([res.status, res.json.error], other).toEqual([404, "NOT_FOUND"]);
    }
    const chosen = await choose(parents.S1, photoOf["03.jpg"]!);
    expect(chosen.status, chosen.text).toBe(200);
    expect(chosen.json).toMatchObject({ photo_id: photoOf["03.jpg"], open: true });
    // Changing it is allowed until the deadline; the second parent of the same child sees the same choice.
    expect((await choose(parents.S1, photoOf["02.jpg"]!)).status).toBe(200);
    expect((await choose(parents.S1, photoOf["03.jpg"]!)).status).toBe(200);
    expect((await pose((await enterCode(code("S1"))).json.token)).json.photo_id).toBe(photoOf["03.jpg"]);
    expect((await pose(parents.S2)).json.photo_id).toBeNull();

    const studio = await listGalleries(owner.token, job.agencyId, job.jobId);
    expect(studio.filter((g) => g.kind === "subject").map((g) => [g.student_id, (g as unknown as { yearbook_pose_chosen: boolean }).yearbook_pose_chosen])).toEqual([
      ["S1", true],
      ["S2", false],
      ["S3", false],
    ]);
  }, 400_000);

  it("the PSPA export uses the chosen pose for that child, and the first portrait for the others", async () => {
    const res = await pspaRoute.GET(new Request(`http://localhost:3000/v1/services/studio/qr-sort/${job.taskId}/pspa`, { headers: { authorization: `Bearer ${owner.token}` } }), { params: Promise.resolve({ taskId: job.taskId }) });
    expect(res.status).toBe(200);
    const entries = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const rows = new TextDecoder().decode(entries["INDEX.TXT"]).trimEnd().split("\r\n").map((l) => l.split("\t"));
    const portraitOf = (last: string) => {
      const row = rows.find((r) => r[4] === last)!;
      return Buffer.from(entries[`${row[1]}/${row[2]}`]!);
    };
    // Ann's chosen 03.jpg, not her first portrait 02.jpg; Ben's first, 05.jpg.
    const expected = async (file: string) => (await pspaPortrait(await fileBytes(job.files[file]!))).jpeg;
    expect(portraitOf("Archer").equals(await expected("03.jpg"))).toBe(true);
    expect(portraitOf("Archer").equals(await expected("02.jpg"))).toBe(false);
    expect(portraitOf("Brook").equals(await expected("05.jpg"))).toBe(true);
  }, 300_000);

  it("after the deadline the choice is read-only (409 YEARBOOK_DEADLINE_PASSED); without one, 409 YEARBOOK_POSE_OFF", async () => {
    expect((await publishGalleries(owner.token, job.agencyId, job.jobId, { yearbook_deadline: inDays(-1) })).status).toBe(200);
    const late = await choose(parents.S1, photoOf["02.jpg"]!);
    expect([late.status, late.json.error]).toEqual([409, "YEARBOOK_DEADLINE_PASSED"]);
    expect(late.json.message).toMatch(/until .*closed/);
    expect((await pose(parents.S1)).json).toMatchObject({ photo_id: photoOf["03.jpg"], open: false });
    // Another child's photo is still a 404, not a word about the deadline.
    expect((await choose(parents.S1, photoOf["05.jpg"]!)).status).toBe(404);

    // A republish without the field keeps the deadline; null takes the choice away.
    expect((await publishGalleries(owner.token, job.agencyId, job.jobId)).status).toBe(200);
    expect((await choose(parents.S2, photoOf["05.jpg"]!)).json.error).toBe("YEARBOOK_DEADLINE_PASSED");
    expect((await publishGalleries(owner.token, job.agencyId, job.jobId, { yearbook_deadline: null })).status).toBe(200);
    const off = await choose(parents.S2, photoOf["05.jpg"]!);
    expect([off.status, off.json.error]).toEqual([409, "YEARBOOK_POSE_OFF"]);
    expect((await pose(parents.S2)).json).toEqual({ photo_id: null, deadline: null, open: false });
    const bad = await publishGalleries(owner.token, job.agencyId, job.jobId, { yearbook_deadline: "next week" });
    expect([bad.status, bad.json.error]).toEqual([400, "VALIDATION_ERROR"]);
  }, 120_000);
});
