import sharp from "sharp";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as closeRoute from "@/app/v1/services/studio/agencies/[agencyId]/jobs/[jobId]/galleries/close/route";
import * as reopenRoute from "@/app/v1/services/studio/agencies/[agencyId]/jobs/[jobId]/galleries/reopen/route";
import * as galleriesRoute from "@/app/v1/services/studio/agencies/[agencyId]/jobs/[jobId]/galleries/route";
import * as settingsRoute from "@/app/v1/services/studio/gallery-settings/route";
import * as accountRoute from "@/app/v1/account/route";
import * as jobRoute from "@/app/v1/services/studio/agencies/[agencyId]/jobs/[jobId]/route";
import * as flyerRoute from "@/app/v1/services/studio/agencies/[agencyId]/jobs/[jobId]/galleries/flyer/route";
import { forEachRenderedPage, pdfText } from "../support/pdf-render";
import { scanQrCodes } from "../support/qr-scan";
import * as parentGalleriesRoute from "@/app/v1/parent/galleries/route";
import * as photosRoute from "@/app/v1/parent/galleries/[galleryId]/photos/route";
import * as photoRoute from "@/app/v1/parent/photos/[photoId]/route";
import * as favouritesRoute from "@/app/v1/parent/favourites/route";
import * as favouriteRoute from "@/app/v1/parent/favourites/[photoId]/route";
import * as frameRoute from "@/app/v1/services/studio/qr-sort/[taskId]/results/[fileId]/route";
import { getDb } from "@/lib/foundation/db/client";
import { galleryAccessCodes, galleryPhotos, jobFiles } from "@/lib/foundation/db/schema";
import { shutDownCardReader } from "@/lib/engines/imaging/card-reader/read-cards";
import { storage } from "@/lib/domain/storage";
import { call, testAccount } from "../http";
import { balanceOf, startTestRunner, stopAll, upload } from "../jobs/bg-remove-harness";
import { makeJobWithPhotos } from "../jobs/matching-harness";
import { cameraFrame } from "../support/picture-day";
import { sortedPictureDay, type SortedJob } from "../support/sorted-job";
import { enterCode, fetchPreview, galleriesPath, listGalleries, publishGalleries, waitForPreviews } from "../support/galleries";

// Publishing a sorted picture day as parent galleries, end to end through the
// routes: a real QR sort by the embedded runner, the gallery-previews job
// rendering watermarked previews into storage, codes exchanged for tokens, the
// parent's pages of photos and favourites, then close, reopen, republish.
beforeAll(() => startTestRunner());
afterAll(async () => {
  await stopAll();
  await shutDownCardReader();
});

const S = "/v1/services/studio";
let owner: Awaited<ReturnType<typeof testAccount>>;
let job: SortedJob;
let codes: Record<string, string>;

const asParent = (token: string) => ({
  galleries: () => call(parentGalleriesRoute, "GET", "/v1/parent/galleries", { token }),
  photos: (galleryId: string, q = "") => call(photosRoute, "GET", `/v1/parent/galleries/${galleryId}/photos${q}`, { token, params: { galleryId } }),
  photo: (photoId: string) => call(photoRoute, "GET", `/v1/parent/photos/${photoId}`, { token, params: { photoId } }),
  favourite: (photoId: string) => call(favouriteRoute, "PUT", `/v1/parent/favourites/${photoId}`, { token, params: { photoId } }),
  unfavourite: (photoId: string) => call(favouriteRoute, "DELETE", `/v1/parent/favourites/${photoId}`, { token, params: { photoId } }),
  favourites: () => call(favouritesRoute, "GET", "/v1/parent/favourites", { token }),
});

describe("parent galleries from a sorted picture day", () => {
  it("refuses to publish a job nobody sorted", async () => {
    owner = await testAccount({ tokens: 10 });
    job = await sortedPictureDay(owner.token);
    const unsorted = await makeJobWithPhotos(owner.token, job.agencyId, [{ name: "x.jpg", bytes: await cameraFrame({ name: "x.jpg", seconds: null }) }]);
    const res = await publishGalleries(owner.token, job.agencyId, unsorted.jobId);
    expect([res.status, res.json.error]).toEqual([409, "JOB_NOT_SORTED"]);
  }, 300_000);

  it("publishes one gallery per child and the group gallery, with codes, and renders watermarked previews (free)", async () => {
    const settings = await call(settingsRoute, "PUT", `${S}/gallery-settings`, { token: owner.token, body: { watermark_text: "Maple Proofs", expiry_days: 14 } });
    expect(settings.status, settings.text).toBe(200);
    expect(settings.json).toEqual({ expiry_days: 14, watermark_text: "Maple Proofs", watermark_logo: false, group_gallery: true, downloads_enabled: false, reminder_days: 3, order_photo_retention_days: 365 });
    expect((await call(settingsRoute, "GET", `${S}/gallery-settings`, { token: owner.token })).json.watermark_text).toBe("Maple Proofs");

    const tokensBefore = await balanceOf(owner.token);
    const res = await publishGalleries(owner.token, job.agencyId, job.jobId, { group_file_ids: [job.files["09.jpg"]] });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ job_id: job.jobId, galleries: 4, photos_added: 7, gallery_url: expect.stringMatching(/\/g$/) });
    const list = await waitForPreviews(owner.token, job.agencyId, job.jobId);
    expect(await balanceOf(owner.token)).toBe(tokensBefore);
    expect(list.map((g) => [g.kind, g.student_id, g.photo_count, g.status])).toEqual([
      ["subject", "S1", 2, "published"],
      ["subject", "S2", 2, "published"],
      ["subject", "S3", 2, "published"],
      ["group", null, 1, "published"],
    ]);
    // 14 days from the studio's setting.
    const days = (Date.parse(list[0]!.expires_at!) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(13.9);
    expect(days).toBeLessThanOrEqual(14);
    codes = Object.fromEntries(list.filter((g) => g.kind === "subject").map((g) => [g.student_id!, g.access_code!]));
    for (const code of Object.values(codes)) expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}$/);
    expect(new Set(Object.values(codes)).size).toBe(3);
    expect(list.find((g) => g.kind === "group")!.access_code).toBeNull();
    // The codes are not stored in clear anywhere in the table.
    const rows = await (await getDb()).select().from(galleryAccessCodes).where(eq(galleryAccessCodes.jobId, job.jobId));
    expect(JSON.stringify(rows)).not.toContain(codes.S1!.replace("-", ""));
    expect(JSON.stringify(rows)).not.toContain(codes.S1!);
  }, 200_000);

  it("opens a child's gallery and the group gallery with the code, as previews of at most 1,200 px with the watermark", async () => {
    const typed = ` ${codes.S1!.toLowerCase().replace("-", " ")} `;
    const access = await enterCode(typed);
    expect(access.status, access.text).toBe(200);
    expect(access.json.galleries.map((g: any) => [g.kind, g.title, g.photo_count])).toEqual([
      ["subject", "Ann Archer", 2],
      ["group", "Picture day", 1],
    ]);
    const parent = asParent(access.json.token);
    const listed = await parent.galleries();
    expect(listed.json.data).toEqual(access.json.galleries);
    const own = access.json.galleries[0].id as string;
    const photos = await parent.photos(own);
    expect(photos.status, photos.text).toBe(200);
    expect(photos.json.data).toHaveLength(2);
    expect(photos.json.data.map((p: any) => [p.width, p.height])).toEqual([
      [1000, 667],
      [1200, 800],
    ]);
    // The originals' pixel sizes (for the cart's ppi warning), never the originals themselves.
    expect(photos.json.data.map((p: any) => [p.original_width, p.original_height])).toEqual([
      [1000, 667],
      [2400, 1600],
    ]);
    // Nothing in the answer leads to an original: no storage keys, no /files/ URLs, no job file ids.
    expect(photos.text).not.toMatch(/studio\/|\/files\/|"file_id"|job_file/);
    const [first, big] = photos.json.data;
    const served = await fetchPreview(big.preview_url);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/jpeg");
    expect(served.headers.get("cache-control")).toMatch(/^private/);
    const meta = await sharp(served.body).metadata();
    expect([meta.width, meta.height, meta.format]).toEqual([1200, 800, "jpeg"]);
    // The preview differs from the original scaled down the same way: the watermark is in the pixels.
    const db = await getDb();
    const [file] = await db.select().from(jobFiles).where(eq(jobFiles.id, job.files["03.jpg"]!));
    const original = await storage().get(file!.storageKey);
    const plain = await sharp(original!.body).resize(1200, 800).greyscale().raw().toBuffer();
    const marked = await sharp(served.body).greyscale().raw().toBuffer();
    let differing = 0;
    for (let i = 0; i < plain.length; i += 7) if (Math.abs(plain[i]! - marked[i]!) > 30) differing++;
    expect(differing / (plain.length / 7)).toBeGreaterThan(0.02);
    expect(served.body.byteLength).toBeLessThan(original!.body.byteLength);
    // One photo as the grid lists it; the group gallery's photo too.
    expect((await parent.photo(first.id)).json).toEqual(first);
    const group = await parent.photos(access.json.galleries[1].id);
    expect(group.json.data).toHaveLength(1);
    expect((await fetchPreview(group.json.data[0].preview_url)).status).toBe(200);
    // Pages: one photo a page.
    const page1 = await parent.photos(own, "?limit=1");
    expect(page1.json.data.map((p: any) => p.id)).toEqual([first.id]);
    expect(page1.json.links.next).toBeTruthy();
  });

  it("prints the codes as a class flyer of cut-apart slips whose QR opens the gallery with the code", async () => {
    const { url, params } = galleriesPath(job.agencyId, job.jobId);
    const res = await flyerRoute.GET(new Request(`http://localhost:3000${url}/flyer`, { headers: { authorization: `Bearer ${owner.token}` } }), { params: Promise.resolve(params) });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    const pdf = new Uint8Array(await res.arrayBuffer());
    const text = await pdfText(pdf);
    for (const [studentId, name] of [["S1", "Ann Archer"], ["S2", "Ben Brook"], ["S3", "Cat Crane"]] as const) {
      expect(text).toContain(name);
      expect(text).toContain(codes[studentId]!);
    }
    const scanned: string[] = [];
    const pages = await forEachRenderedPage(pdf, 150, async (page) => {
      scanned.push(...(await scanQrCodes(page.crop(0, 0, page.width, page.height))));
    });
    expect(pages).toBe(1);
    expect(scanned.sort()).toEqual(Object.values(codes).map((c) => `http://localhost:3000/g?code=${c}`).sort());
    // Another studio gets the 404 an unknown job gets.
    const other = await testAccount();
    const theirs = await flyerRoute.GET(new Request(`http://localhost:3000${url}/flyer`, { headers: { authorization: `Bearer ${other.token}` } }), { params: Promise.resolve(params) });
    expect(theirs.status).toBe(404);
  });

  it("keeps favourites per child, shared by every holder of the code", async () => {
    const mum = asParent((await enterCode(codes.S1!)).json.token);
    const dad = asParent((await enterCode(codes.S1!)).json.token);
    const own = (await mum.galleries()).json.data[0].id;
    const [a, b] = (await mum.photos(own)).json.data;
    expect((await mum.favourite(a.id)).json).toEqual({ photo_id: a.id, favourite: true });
    expect((await mum.favourite(a.id)).status).toBe(200); // repeating is harmless
    expect((await dad.favourite(b.id)).status).toBe(200);
    const favs = await mum.favourites();
    expect(favs.json.data.map((p: any) => [p.id, p.favourite])).toEqual([
      [a.id, true],
      [b.id, true],
    ]);
    expect((await dad.photos(own)).json.data.map((p: any) => p.favourite)).toEqual([true, true]);
    expect((await dad.unfavourite(b.id)).json).toEqual({ photo_id: b.id, favourite: false });
    expect((await mum.favourites()).json.data.map((p: any) => p.id)).toEqual([a.id]);
    // Ben's parents see none of Ann's favourites.
    const ben = asParent((await enterCode(codes.S2!)).json.token);
    expect((await ben.favourites()).json.data).toEqual([]);
  });

  it("republishing after a correction adds the photo, moves it out of the other child's gallery, and keeps every code", async () => {
    // The photographer files Ben's second photo under Ann.
    const moved = await call(frameRoute, "PATCH", `${S}/qr-sort/${job.taskId}/results/${job.files["06.jpg"]}`, { token: owner.token, params: { taskId: job.taskId, fileId: String(job.files["06.jpg"]) }, body: { subject_id: job.subjects.S1 } });
    expect(moved.status, moved.text).toBe(200);
    const res = await publishGalleries(owner.token, job.agencyId, job.jobId);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ galleries: 4, photos_added: 1 });
    const list = await waitForPreviews(owner.token, job.agencyId, job.jobId);
    expect(Object.fromEntries(list.filter((g) => g.kind === "subject").map((g) => [g.student_id, g.access_code]))).toEqual(codes);
    expect(list.map((g) => g.photo_count)).toEqual([3, 1, 2, 1]);
    const ann = asParent((await enterCode(codes.S1!)).json.token);
    const ben = asParent((await enterCode(codes.S2!)).json.token);
    expect((await ann.photos((await ann.galleries()).json.data[0].id)).json.data).toHaveLength(3);
    expect((await ben.photos((await ben.galleries()).json.data[0].id)).json.data).toHaveLength(1);
  }, 200_000);

  it("closes and reopens a job's galleries: the same codes work again", async () => {
    const { url, params } = galleriesPath(job.agencyId, job.jobId);
    const token = (await enterCode(codes.S3!)).json.token;
    const url1 = (await asParent(token).photos((await asParent(token).galleries()).json.data[0].id)).json.data[0].preview_url;
    const closed = await call(closeRoute, "POST", `${url}/close`, { token: owner.token, params });
    expect(closed.json).toEqual({ job_id: job.jobId, galleries: 4, status: "closed" });
    expect((await listGalleries(owner.token, job.agencyId, job.jobId)).every((g) => g.status === "closed")).toBe(true);
    expect((await asParent(token).galleries()).status).toBe(401);
    expect((await fetchPreview(url1)).status).toBe(404);
    const wrong = await enterCode(codes.S3!);
    expect([wrong.status, wrong.json.error]).toEqual([401, "INVALID_ACCESS_CODE"]);

    const reopened = await call(reopenRoute, "POST", `${url}/reopen`, { token: owner.token, params, body: { expiry_days: 3 } });
    expect(reopened.status, reopened.text).toBe(200);
    expect(reopened.json).toMatchObject({ galleries: 4, status: "published" });
    expect((Date.parse(reopened.json.expires_at) - Date.now()) / 86_400_000).toBeCloseTo(3, 1);
    expect((await asParent(token).galleries()).status).toBe(200);
    expect((await fetchPreview(url1)).status).toBe(200);
    expect((await enterCode(codes.S3!)).status).toBe(200);
  });

  it("a new watermark (a logo) re-renders the previews on the next publish", async () => {
    const logo = await sharp({ create: { width: 300, height: 120, channels: 4, background: { r: 220, g: 20, b: 20, alpha: 1 } } }).png().toBuffer();
    const logoUrl = await upload(owner.token, logo, "logo.png");
    const res = await call(settingsRoute, "PUT", `${S}/gallery-settings`, { token: owner.token, body: { watermark_logo_url: logoUrl } });
    expect(res.status, res.text).toBe(200);
    expect(res.json.watermark_logo).toBe(true);
    const db = await getDb();
    const before = await db.select({ key: galleryPhotos.previewKey }).from(galleryPhotos).where(eq(galleryPhotos.accountId, owner.account.id));
    expect((await publishGalleries(owner.token, job.agencyId, job.jobId)).status).toBe(200);
    await waitForPreviews(owner.token, job.agencyId, job.jobId);
    const until = Date.now() + 60_000;
    let after = before;
    while (Date.now() < until) {
      after = await db.select({ key: galleryPhotos.previewKey }).from(galleryPhotos).where(eq(galleryPhotos.accountId, owner.account.id));
      if (after.every((r) => r.key?.endsWith("-w3.jpg"))) break;
      await new Promise((r) => setTimeout(r, 300));
    }
    expect(before.every((r) => r.key?.endsWith("-w2.jpg"))).toBe(true);
    expect(after.every((r) => r.key?.endsWith("-w3.jpg"))).toBe(true);
    // The old previews are gone from storage; the new ones are red in the middle.
    expect(await storage().get(before[0]!.key!)).toBeNull();
    const { data, info } = await sharp((await storage().get(after[0]!.key!))!.body).raw().toBuffer({ resolveWithObject: true });
    const mid = (Math.floor(info.height / 2) * info.width + Math.floor(info.width / 2)) * info.channels;
    expect(data[mid]! - data[mid + 1]!).toBeGreaterThan(40);
  }, 200_000);
});

describe("deleting the job", () => {
  it("(after a draft publish that opened nothing) closes its galleries and deletes their previews", async () => {
    const { token } = await testAccount({ tokens: 10 });
    const doomed = await sortedPictureDay(token, "Doomed School");
    // First as drafts: codes to print, nothing open yet.
    expect((await publishGalleries(token, doomed.agencyId, doomed.jobId, { draft: true })).status).toBe(200);
    const drafts = await listGalleries(token, doomed.agencyId, doomed.jobId);
    expect(drafts.map((g) => g.status)).toEqual(["draft", "draft", "draft"]);
    const code = drafts[0]!.access_code!;
    expect((await enterCode(code)).status).toBe(401);
    expect((await publishGalleries(token, doomed.agencyId, doomed.jobId)).status).toBe(200);
    const list = await waitForPreviews(token, doomed.agencyId, doomed.jobId);
    expect(list.map((g) => [g.status, g.access_code])).toEqual(drafts.map((g) => ["published", g.access_code]));
    const parent = (await enterCode(code)).json.token as string;
    const db = await getDb();
    const keys = (await db.select({ key: galleryPhotos.previewKey }).from(galleryPhotos).where(eq(galleryPhotos.accountId, (await call(accountRoute, "GET", "/v1/account", { token })).json.id))).map((r) => r.key!);
    expect(keys.length).toBe(6);
    for (const key of keys) expect(await storage().get(key)).not.toBeNull();
    const del = await call(jobRoute, "DELETE", `${S}/agencies/${doomed.agencyId}/jobs/${doomed.jobId}?cascade=true`, { token, params: { agencyId: String(doomed.agencyId), jobId: String(doomed.jobId) } });
    expect(del.status, del.text).toBe(200);
    expect((await enterCode(code)).status).toBe(401);
    expect((await asParent(parent).galleries()).status).toBe(401);
    for (const key of keys) expect(await storage().get(key)).toBeNull();
  }, 300_000);
});

describe("studio routes", () => {
  it("answer 404 for another studio's job, on every gallery route", async () => {
    const other = await testAccount({ tokens: 10 });
    const { url, params } = galleriesPath(job.agencyId, job.jobId);
    const answers = [
      await call(galleriesRoute, "GET", url, { token: other.token, params }),
      await call(galleriesRoute, "POST", url, { token: other.token, params, body: {} }),
      await call(closeRoute, "POST", `${url}/close`, { token: other.token, params }),
      await call(reopenRoute, "POST", `${url}/reopen`, { token: other.token, params, body: {} }),
    ];
    for (const a of answers) expect([a.status, a.json.error], a.text).toEqual([404, "NOT_FOUND"]);
    // Its own settings are its own.
    expect((await call(settingsRoute, "GET", `${S}/gallery-settings`, { token: other.token })).json.watermark_text).toBeNull();
    expect((await listGalleries(owner.token, job.agencyId, job.jobId)).every((g) => g.status === "published")).toBe(true);
  });

  it("refuse bad input with a 400 naming the field", async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ group_file_ids: ["x"] }, "group_file_ids"],
      [{ expiry_days: 0 }, "expiry_days"],
      [{ surprise: true }, "surprise"],
    ];
    for (const [body, field] of cases) {
      const res = await publishGalleries(owner.token, job.agencyId, job.jobId, body);
      expect(res.status, res.text).toBe(400);
      expect(JSON.stringify(res.json.details), res.text).toContain(field);
    }
    // Another studio's photo (or another job's) is not this job's.
    const other = await testAccount({ tokens: 10 });
    const theirs = await sortedPictureDay(other.token, "Other School");
    const foreign = await publishGalleries(owner.token, job.agencyId, job.jobId, { group_file_ids: [theirs.files["09.jpg"]] });
    expect([foreign.status, foreign.json.error, foreign.json.details.field]).toEqual([400, "FILE_NOT_IN_JOB", "group_file_ids"]);
    for (const [body, field] of [
      [{ watermark_text: "" }, "watermark_text"],
      [{ expiry_days: 1000 }, "expiry_days"],
      [{ watermark_logo_url: "https://example.com/logo.png" }, "watermark_logo_url"],
    ] as const) {
      const res = await call(settingsRoute, "PUT", `${S}/gallery-settings`, { token: owner.token, body });
      expect(res.status, res.text).toBe(400);
      expect(JSON.stringify(res.json.details), res.text).toContain(field);
    }
    const noCode = await call((await import("@/app/v1/parent/access/route")), "POST", "/v1/parent/access", { body: {} });
    expect([noCode.status, JSON.stringify(noCode.json.details)]).toEqual([400, expect.stringContaining("code")]);
  }, 300_000);
});
