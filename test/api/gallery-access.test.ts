import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as closeRoute from "@/app/v1/services/studio/agencies/[agencyId]/jobs/[jobId]/galleries/close/route";
import * as parentGalleriesRoute from "@/app/v1/parent/galleries/route";
import * as photosRoute from "@/app/v1/parent/galleries/[galleryId]/photos/route";
import * as photoRoute from "@/app/v1/parent/photos/[photoId]/route";
import * as favouritesRoute from "@/app/v1/parent/favourites/route";
import * as favouriteRoute from "@/app/v1/parent/favourites/[photoId]/route";
import * as accountRoute from "@/app/v1/account/route";
import * as subjectRoute from "@/app/v1/services/studio/agencies/[agencyId]/subjects/[subjectId]/route";
import { getDb } from "@/lib/foundation/db/client";
import { galleries } from "@/lib/foundation/db/schema";
import { shutDownCardReader } from "@/lib/engines/imaging/card-reader/read-cards";
import { resetRateLimiter } from "@/lib/http/rate-limit";
import { newAccessCode } from "@/lib/services/galleries/access-codes";
import { ENTRIES_PER_CODE, WRONG_CODES_PER_IP } from "@/lib/services/galleries/code-attempts";
import { issueParentToken } from "@/lib/services/galleries/parent-token";
import { call, testAccount } from "../http";
import { startTestRunner, stopAll } from "../jobs/bg-remove-harness";
import { sortedPictureDay, type SortedJob } from "../support/sorted-job";
import { enterCode, fetchPreview, galleriesPath, listGalleries, publishGalleries, waitForPreviews } from "../support/galleries";

// The access sweep: a code opens its own child's gallery and the job's group
// gallery, and nothing else — not another child's photos by any parent route
// or by a preview URL, not another studio's, not a closed or expired gallery —
// and guessing codes runs into the limits without learning anything.
beforeAll(() => startTestRunner());
afterAll(async () => {
  await stopAll();
  await shutDownCardReader();
});

type Child = { token: string; own: string; group: string; photos: Array<{ id: string; preview_url: string }>; groupPhotos: Array<{ id: string; preview_url: string }> };

const routesFor = (token: string) => ({
  photos: (galleryId: string) => call(photosRoute, "GET", `/v1/parent/galleries/${galleryId}/photos`, { token, params: { galleryId } }),
  photo: (photoId: string) => call(photoRoute, "GET", `/v1/parent/photos/${photoId}`, { token, params: { photoId } }),
  favourite: (photoId: string) => call(favouriteRoute, "PUT", `/v1/parent/favourites/${photoId}`, { token, params: { photoId } }),
  unfavourite: (photoId: string) => call(favouriteRoute, "DELETE", `/v1/parent/favourites/${photoId}`, { token, params: { photoId } }),
  galleries: () => call(parentGalleriesRoute, "GET", "/v1/parent/galleries", { token }),
  favourites: () => call(favouritesRoute, "GET", "/v1/parent/favourites", { token }),
});

async function open(code: string): Promise<Child> {
  const access = await enterCode(code);
  expect(access.status, access.text).toBe(200);
  const r = routesFor(access.json.token);
  const [own, group] = access.json.galleries.map((g: { id: string }) => g.id);
  return { token: access.json.token, own, group, photos: (await r.photos(own)).json.data, groupPhotos: group ? (await r.photos(group)).json.data : [] };
}

let owner: Awaited<ReturnType<typeof testAccount>>;
let job: SortedJob;
let codes: Record<string, string>;
let ann: Child;
let ben: Child;
let elsewhere: Child;
let elsewhereCode: string;

beforeAll(async () => {
  owner = await testAccount({ tokens: 10 });
  job = await sortedPictureDay(owner.token);
  expect((await publishGalleries(owner.token, job.agencyId, job.jobId, { group_file_ids: [job.files["09.jpg"]] })).status).toBe(200);
  const list = await waitForPreviews(owner.token, job.agencyId, job.jobId);
  codes = Object.fromEntries(list.filter((g) => g.kind === "subject").map((g) => [g.student_id!, g.access_code!]));
  ann = await open(codes.S1!);
  ben = await open(codes.S2!);
  // Another studio's published picture day.
  const other = await testAccount({ tokens: 10 });
  const theirs = await sortedPictureDay(other.token, "Elsewhere School");
  expect((await publishGalleries(other.token, theirs.agencyId, theirs.jobId)).status).toBe(200);
  const otherList = await waitForPreviews(other.token, theirs.agencyId, theirs.jobId);
  elsewhereCode = otherList[0]!.access_code!;
  elsewhere = await open(elsewhereCode);
}, 400_000);

const notFound = (res: { status: number; json: any; text: string }, what: string) => expect([res.status, res.json?.error], `${what}: ${res.text}`).toEqual([404, "NOT_FOUND"]);

describe("a code opens its own child's gallery and the job's group gallery, nothing else", () => {
  it("each child sees its own photos and the shared group photo", () => {
    expect(ann.photos.length).toBe(2);
    expect(ben.photos.length).toBe(2);
    expect(ann.group).toBe(ben.group);
    expect(ann.groupPhotos.map((p) => p.id)).toEqual(ben.groupPhotos.map((p) => p.id));
    expect(elsewhere.group).toBeUndefined();
  });

  it("another child's gallery, photos and favourites answer 404 on every parent route, as an unknown id does", async () => {
    for (const [who, intruder, victim] of [
      ["Ben on Ann's", ben, ann],
      ["Ann on Ben's", ann, ben],
      ["another studio's child on Ann's", elsewhere, ann],
      ["Ann on another studio's", ann, elsewhere],
    ] as const) {
      const r = routesFor(intruder.token);
      notFound(await r.photos(victim.own), `${who} gallery`);
      if (victim.group && victim.group !== intruder.group) notFound(await r.photos(victim.group), `${who} group gallery`);
      for (const photo of victim.photos) {
        notFound(await r.photo(photo.id), `${who} photo`);
        notFound(await r.favourite(photo.id), `${who} favourite`);
        notFound(await r.unfavourite(photo.id), `${who} unfavourite`);
      }
      const ghost = await r.photo("gph_doesnotexistanywhere0");
      expect(ghost.json.message).toBe((await r.photo(victim.photos[0]!.id)).json.message);
      // Their own lists never include the other child's.
      const listed = JSON.stringify([(await r.galleries()).json, (await r.favourites()).json]);
      expect(listed).not.toContain(victim.own);
    }
    // Nothing was marked by the attempts.
    expect((await routesFor(ann.token).favourites()).json.data).toEqual([]);
  });

  it("preview URLs are signed for one photo and one child: another child's, a tampered or a re-pointed URL is a 404", async () => {
    for (const p of [...ann.photos, ...ann.groupPhotos]) expect((await fetchPreview(p.preview_url)).status).toBe(200);
    const annUrl = new URL(ann.photos[0]!.preview_url);
    const benUrl = new URL(ben.photos[0]!.preview_url);
    // Ben's signature on Ann's photo, Ann's on Ben's photo.
    const repointed = new URL(benUrl);
    repointed.pathname = annUrl.pathname;
    expect((await fetchPreview(repointed.toString())).status).toBe(404);
    // Ann's URL claimed for Ben's code, and a later expiry.
    const claimed = new URL(annUrl);
    claimed.searchParams.set("c", job.subjects.S2);
    expect((await fetchPreview(claimed.toString())).status).toBe(404);
    const extended = new URL(annUrl);
    extended.searchParams.set("expires", String(Number(annUrl.searchParams.get("expires")) + 86400));
    expect((await fetchPreview(extended.toString())).status).toBe(404);
    const bare = new URL(annUrl);
    bare.search = "";
    expect((await fetchPreview(bare.toString())).status).toBe(404);
    // A parent token does not stand in for the signature.
    expect((await fetchPreview(bare.toString(), { authorization: `Bearer ${ann.token}` })).status).toBe(404);
    // The group photo's URL is per child too: Ben's works, Ann's signature re-pointed does not.
    expect((await fetchPreview(ben.groupPhotos[0]!.preview_url)).status).toBe(200);
  });

  it("a gallery token is no studio credential, a studio token no gallery token, and a forged token opens nothing", async () => {
    expect((await call(accountRoute, "GET", "/v1/account", { token: ann.token })).status).toBe(401);
    expect((await routesFor(owner.token).galleries()).status).toBe(401);
    const [h, p, s] = ann.token.split(".");
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p!, "base64url").toString()), sub: job.subjects.S2 })).toString("base64url")}.${s}`;
    expect((await routesFor(forged).galleries()).status).toBe(401);
    expect((await routesFor("").galleries()).status).toBe(401);
    // A correctly signed token naming a child without a gallery in the job opens nothing.
    const crossed = await issueParentToken({ accountId: owner.account.id, jobId: job.jobId, subjectId: "sub_nobody" }, new Date(Date.now() + 60_000));
    expect((await routesFor(crossed).galleries()).status).toBe(401);
    const expired = await issueParentToken({ accountId: owner.account.id, jobId: job.jobId, subjectId: job.subjects.S1 }, new Date(Date.now() - 1000));
    expect((await routesFor(expired).galleries()).status).toBe(401);
  });
});

describe("closed, expired and deleted", () => {
  it("an expired gallery opens nowhere: code, token, preview URL; its answer is a guessed code's", async () => {
    const db = await getDb();
    const guessed = await enterCode(newAccessCode());
    await db.update(galleries).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(galleries.id, ben.own));
    const code = await enterCode(codes.S2!);
    expect([code.status, code.json.error, code.json.message]).toEqual([401, "INVALID_ACCESS_CODE", guessed.json.message]);
    expect((await routesFor(ben.token).galleries()).status).toBe(401);
    // Not even the group gallery: a code whose own gallery is closed opens nothing.
    expect((await routesFor(ben.token).photos(ben.group)).status).toBe(401);
    expect((await fetchPreview(ben.photos[0]!.preview_url)).status).toBe(404);
    expect((await fetchPreview(ben.groupPhotos[0]!.preview_url)).status).toBe(404);
    expect((await listGalleries(owner.token, job.agencyId, job.jobId)).find((g) => g.id === ben.own)!.status).toBe("closed");
    // Ann is unaffected.
    expect((await routesFor(ann.token).photos(ann.own)).status).toBe(200);
  });

  it("a child removed from the roster loses its gallery and code", async () => {
    const params = { agencyId: String(job.agencyId), subjectId: job.subjects.S3 };
    const cat = await open(codes.S3!);
    const del = await call(subjectRoute, "DELETE", `/v1/services/studio/agencies/${job.agencyId}/subjects/${job.subjects.S3}`, { token: owner.token, params });
    expect(del.status, del.text).toBe(204);
    expect((await enterCode(codes.S3!)).status).toBe(401);
    expect((await routesFor(cat.token).galleries()).status).toBe(401);
    expect((await fetchPreview(cat.photos[0]!.preview_url)).status).toBe(404);
  });

  it("a closed job's galleries open nowhere", async () => {
    const { url, params } = galleriesPath(job.agencyId, job.jobId);
    expect((await call(closeRoute, "POST", `${url}/close`, { token: owner.token, params })).status).toBe(200);
    const code = await enterCode(codes.S1!);
    expect([code.status, code.json.error]).toEqual([401, "INVALID_ACCESS_CODE"]);
    const r = routesFor(ann.token);
    for (const res of [await r.galleries(), await r.photos(ann.own), await r.photo(ann.photos[0]!.id), await r.favourite(ann.photos[0]!.id), await r.favourites()]) expect(res.status).toBe(401);
    for (const p of [...ann.photos, ...ann.groupPhotos]) expect((await fetchPreview(p.preview_url)).status).toBe(404);
  });
});

describe("guessing codes", () => {
  it("wrong codes from one address hit the limit, after which even a right code from there is refused the same way", async () => {
    resetRateLimiter();
    const ip = "198.51.100.7";
    for (let i = 0; i < WRONG_CODES_PER_IP; i++) {
      const res = await enterCode(newAccessCode(), ip);
      expect([res.status, res.json.error]).toEqual([401, "INVALID_ACCESS_CODE"]);
    }
    const locked = await enterCode(newAccessCode(), ip);
    expect([locked.status, locked.json.error]).toEqual([429, "TOO_MANY_CODE_ATTEMPTS"]);
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThanOrEqual(30);
    // The other studio's code is right; from this address it gets the same 429, telling nothing.
    const right = await enterCode(elsewhereCode, ip);
    expect([right.status, right.json.error]).toEqual([429, "TOO_MANY_CODE_ATTEMPTS"]);
    expect((await enterCode(elsewhereCode, "198.51.100.8")).status).toBe(200);
    // Junk counts as a wrong code too (never a different answer).
    const junk = await enterCode("hello", "198.51.100.9");
    expect([junk.status, junk.json.error]).toEqual([401, "INVALID_ACCESS_CODE"]);
  });

  it("one code entered from many addresses hits its own limit", async () => {
    resetRateLimiter();
    const code = newAccessCode();
    for (let i = 0; i < ENTRIES_PER_CODE; i++) expect((await enterCode(code, `192.0.2.${i + 1}`)).status).toBe(401);
    const res = await enterCode(code.toLowerCase().replace("-", ""), "192.0.2.200");
    expect([res.status, res.json.error]).toEqual([429, "TOO_MANY_CODE_ATTEMPTS"]);
  });
});
