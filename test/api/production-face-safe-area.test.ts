import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import * as batchesRoute from "@/app/v1/production/batches/route";
import * as printFileRoute from "@/app/v1/production/print-files/[id]/route";
import { getDb } from "@/lib/foundation/db/client";
import { printFiles } from "@/lib/foundation/db/schema";
import { shutDownFaces } from "@/lib/engines/ml/faces";
import { filesToRender } from "@/lib/services/production/batch-steps";
import { renderPrintFiles } from "@/lib/services/production/render-print-files";
import { faceSafeAreaCounts } from "@/lib/services/production/face-safe-area";
import { call, testAccount } from "../http";
import { productionStudio } from "../support/production-fixtures";
import { childWithPhotos } from "../support/parent-photos";

// Preflight's face check on real print files: the real face engine finds the child's
// face again on each rendered file, and a crop the parent pushed so far that the face
// is cut holds the file with its code and reason, until the studio re-crops it.

afterAll(() => shutDownFaces());

const PORTRAIT = fs.readFileSync(path.join(process.cwd(), "test/fixtures/faces/obama.jpg")); // 640 x 800, exactly 4:5
/** 4 x 5 in with 3 mm bleed: 1270 x 1570 px at 300 ppi (35 px of bleed a side); 100 ppi of the original is enough here. */
const FOUR_BY_FIVE = { key: "45", width_in: 4, height_in: 5, bleed_mm: 3, min_ppi: 100, color_mode: "rgb" as const };

/** A studio selling the 4 x 5 and a child whose one photo is the portrait. */
async function portraitStudio() {
  const owner = await testAccount();
  const shop = await productionStudio(owner.token, owner.account.id, [FOUR_BY_FIVE]);
  const kid = await childWithPhotos(owner.account.id, shop.studio.agencyId, shop.studio.jobId, [PORTRAIT]);
  return { owner, shop, child: { photoId: kid.photoIds[0]!, subjectId: kid.subjectId } };
}

describe("the face inside the print's safe area", () => {
  it("passes a crop with the whole face inside and holds one that cuts it, with the code and the reason in words; a re-crop releases it", async () => {
    const { owner, shop, child } = await portraitStudio();
    // The face's box in the photo is about x 262-429, y 89-291 (of 640 x 800).
    const whole = await shop.paidOrder(child, false, [{ ref: "i45", quantity: 1, crop: { x: 0, y: 0, width: 1, height: 1 } }]);
    // Zoomed in on the right half of the top: the face's left third is outside the crop.
    const pushed = await shop.paidOrder(child, false, [{ ref: "i45", quantity: 1, crop: { x: 0.5, y: 0, width: 0.5, height: 0.5 } }]);

    const db = await getDb();
    const batch = await call(batchesRoute, "POST", "/v1/production/batches", { token: owner.token, body: { shipping: "direct", job_id: Number(shop.studio.jobId) } });
    expect(batch.status).toBe(202);
    const ids = await filesToRender(db, owner.account.id, batch.json.id);
    expect(ids).toHaveLength(2);
    await renderPrintFiles(db, owner.account.id, ids);
    const fileOf = async (orderId: string) => (await db.select().from(printFiles).where(eq(printFiles.orderId, orderId)))[0]!;

    const ok = await fileOf(whole.id);
    expect([ok.status, ok.holdCode, ok.holdReasons, ok.widthPx, ok.heightPx]).toEqual(["rendered", null, [], 1270, 1570]);

    const held = await fileOf(pushed.id);
    expect(held.status).toBe("held");
    expect(held.holdCode).toBe("face_outside_safe_area");
    expect(held.holdReasons).toHaveLength(1);
    // Found again on the file, about 6 mm past the safe area on the left (measured: 5.9 mm).
    expect(held.holdReasons[0]).toMatch(/face crosses the print.s safe area \(found again on the rendered file: [0-9.]+ mm on the left/);
    expect(held.holdReasons[0]).toMatch(/3 mm inside the trim/);
    expect(held.holdReasons[0]).toMatch(/Re-crop/);
    // The studio sees it on the file's page, and re-crops it to the whole photo: rendered and released.
    const seen = await call(printFileRoute, "GET", `/v1/production/print-files/${held.id}`, { token: owner.token, params: { id: held.id } });
    expect(seen.json).toMatchObject({ status: "held", hold_code: "face_outside_safe_area" });
    const fixed = await call(printFileRoute, "PATCH", `/v1/production/print-files/${held.id}`, { token: owner.token, params: { id: held.id }, body: { action: "recrop", crop: { x: 0.05, y: 0, width: 0.9, height: 0.9 } } });
    expect(fixed.status).toBe(200);
    expect(await fileOf(pushed.id)).toMatchObject({ status: "rendered", holdCode: null, holdReasons: [] });
  }, 240_000);

  it("detects the face again only when the stored face lies near the safe area's edge: a face clearly inside passes without the engine", async () => {
    const { owner, shop, child } = await portraitStudio();
    // The whole photo: the face (x 262-429, y 89-291 of 640 x 800) is far inside on every side.
    const inside = await shop.paidOrder(child, false, [{ ref: "i45", quantity: 1, crop: { x: 0, y: 0, width: 1, height: 1 } }]);
    // 400 x 500 px from x 220, y 40 (3x on the file): the face's left edge lands 91 px (7.7 mm) inside the
    // safe area, under a quarter of its 501 px width: near the edge, so it is detected again (and passes).
    const near = await shop.paidOrder(child, false, [{ ref: "i45", quantity: 1, crop: { x: 220 / 640, y: 0.05, width: 0.625, height: 0.625 } }]);

    const db = await getDb();
    const batch = await call(batchesRoute, "POST", "/v1/production/batches", { token: owner.token, body: { shipping: "direct", job_id: Number(shop.studio.jobId) } });
    const ids = await filesToRender(db, owner.account.id, batch.json.id);
    const fileOf = async (orderId: string) => (await db.select().from(printFiles).where(eq(printFiles.orderId, orderId)))[0]!;
    const insideId = (await fileOf(inside.id)).id;
    const nearId = (await fileOf(near.id)).id;
    expect(ids.sort()).toEqual([insideId, nearId].sort());

    // One file at a time, so each one's use of the engine is seen on its own.
    const before = { ...faceSafeAreaCounts };
    await renderPrintFiles(db, owner.account.id, [insideId]);
    expect(faceSafeAreaCounts).toEqual({ detected: before.detected, skipped: before.skipped + 1 });
    await renderPrintFiles(db, owner.account.id, [nearId]);
    expect(faceSafeAreaCounts).toEqual({ detected: before.detected + 1, skipped: before.skipped + 1 });
    expect(await fileOf(inside.id)).toMatchObject({ status: "rendered", holdCode: null, holdReasons: [] });
    expect(await fileOf(near.id)).toMatchObject({ status: "rendered", holdCode: null, holdReasons: [] });
  }, 240_000);
});
