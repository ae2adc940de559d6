import fs from "node:fs";
import path from "node:path";
import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as previewRoute from "@/app/v1/parent/photos/[photoId]/backgrounds/[backgroundId]/route";
import * as backgroundsRoute from "@/app/v1/production/backgrounds/route";
import * as sheetRoute from "@/app/v1/price-sheets/[id]/route";
import * as usageRoute from "@/app/v1/production/usage/route";
import { getDb } from "@/lib/foundation/db/client";
import { photoMattes } from "@/lib/foundation/db/schema";
import { shutDownBackgroundRemoval } from "@/lib/engines/ml/background-removal";
import { shutDownFaces } from "@/lib/engines/ml/faces";
import { call, testAccount } from "../http";
import { SHEET, sellingStudio } from "../support/orders-fixtures";
import { childWithPhotos } from "../support/parent-photos";
import { enterCodeAndAwaitGalleryJob } from "../support/galleries";
import { startTestRunner, stopAll } from "../jobs/bg-remove-harness";

// The cart's background preview made ready when the parent opens the gallery: the code
// exchange's gallery-faces job (a real job runner) cuts each photo out with the real
// engine into the cache the preview route reads, so the parent's request only composites.
// Engine runs are counted by the cache's own rows and the studio's usage, not a mock.

beforeAll(() => startTestRunner());
afterAll(async () => {
  await stopAll();
  await shutDownFaces();
  await shutDownBackgroundRemoval();
});

const POSTER = fs.readFileSync(path.join(process.cwd(), "lib/engines/ml/background-removal/fixtures/person-poster.jpg"));

async function preview(token: string, photoId: string, backgroundId: string) {
  const req = new Request(`http://localhost:3000/v1/parent/photos/${photoId}/backgrounds/${backgroundId}`, {
    headers: { authorization: `Bearer ${token}`, "x-forwarded-for": `203.0.113.${crypto.randomInt(1, 250)}` },
  });
  const res = await previewRoute.GET(req, { params: Promise.resolve({ photoId, backgroundId }) });
  return { status: res.status, type: res.headers.get("content-type") };
}

/** A studio whose job sells an 8x10 (backgrounds allowed or not), with a navy background, and a child's gallery of one photo and its opened code. */
async function openedGallery(allowBackgrounds: boolean) {
  const owner = await testAccount();
  const studio = await sellingStudio(owner.token);
  const items = SHEET.items.map((i) => (i.kind === "print" ? { ...i, name: "8x10", product_id: studio.productId, allow_backgrounds: allowBackgrounds } : i));
  const patched = await call(sheetRoute, "PATCH", `/v1/price-sheets/${studio.sheetId}`, { token: owner.token, params: { id: studio.sheetId }, body: { items } });
  expect(patched.status, patched.text).toBe(200);
  const navy = await call(backgroundsRoute, "POST", "/v1/production/backgrounds", { token: owner.token, body: { name: "Navy", color: "#1e3a5f" } });
  expect(navy.status).toBe(201);
  const kid = await childWithPhotos(owner.account.id, studio.agencyId, studio.jobId, [POSTER]);
  const db = await getDb();
  const run = await enterCodeAndAwaitGalleryJob(owner.account.id, studio.jobId, kid);
  const mattes = () => db.select().from(photoMattes).where(eq(photoMattes.jobFileId, kid.jobFileIds[0]!));
  const usage = async () => (await call(usageRoute, "GET", "/v1/production/usage", { token: owner.token })).json.cutouts;
  return { owner, kid, navy: navy.json.id as string, run, mattes, usage };
}

describe("the background preview made ahead", () => {
  it("after a code entry the job cuts each photo out for the preview, and the parent's preview request reads it without running the engine", async () => {
    const g = await openedGallery(true);
    expect([g.run?.status, g.run?.output]).toEqual(["completed", { looked_at: 1, found: 1, preview_mattes: 1 }]);
    const ahead = await g.mattes();
    expect(ahead.map((m) => m.scale)).toEqual(["preview"]);
    expect(await g.usage()).toEqual({ full: 0, preview: 1, total: 1 });

    const asked = new Date();
    const t = Date.now();
    expect(await preview(g.kid.token, g.kid.photoIds[0]!, g.navy)).toEqual({ status: 200, type: "image/jpeg" });
    const ms = Date.now() - t;
    // The same cached cut-out, made before the request; no other made, the usage unchanged.
    const after = await g.mattes();
    expect(after.map((m) => m.id)).toEqual([ahead[0]!.id]);
    expect(after[0]!.createdAt.getTime()).toBeLessThan(asked.getTime());
    expect(await g.usage()).toEqual({ full: 0, preview: 1, total: 1 });
    console.info(`[preview ahead] the preview request took ${ms} ms with the matte made ahead`);
  }, 300_000);

  it("makes no preview cut-out where the sheet's prints allow no background (the preview cannot be asked for)", async () => {
    const g = await openedGallery(false);
    expect([g.run?.status, g.run?.output]).toEqual(["completed", { looked_at: 1, found: 1, preview_mattes: 0 }]);
    expect(await g.mattes()).toHaveLength(0);
  }, 300_000);
});
