import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import * as warningsRoute from "@/app/v1/parent/photos/[photoId]/print-warnings/route";
import * as backgroundsRoute from "@/app/v1/production/backgrounds/route";
import * as sheetRoute from "@/app/v1/price-sheets/[id]/route";
import { getDb } from "@/lib/foundation/db/client";
import { shutDownBackgroundRemoval } from "@/lib/engines/ml/background-removal";
import { shutDownFaces } from "@/lib/engines/ml/faces";
import { photoFace } from "@/lib/services/orders/photo-face";
import { faceStartCrop } from "@/lib/services/orders/crop";
import { preparePreviewMattes } from "@/lib/services/production/background-preview";
import { HEAD_CUT_REASON } from "@/lib/services/production/head-cut";
import { call, testAccount } from "../http";
import { SHEET, sellingStudio } from "../support/orders-fixtures";
import { childWithPhotos } from "../support/parent-photos";

// The cart's warnings of what production would hold, through the parent's route, on the
// real face engine's stored face and the real background-removal engine's stored preview
// cut-out (made here as the gallery's job makes it), in the hold's own words.

afterAll(async () => {
  await shutDownFaces();
  await shutDownBackgroundRemoval();
});

const fixture = (name: string) => fs.readFileSync(path.join(process.cwd(), "test/fixtures/faces", name));

describe("the cart's print warnings", () => {
  it("warns of a head cut by the photo's top on a background where the crop reaches it (also for a package's print), and of a face over the safe area; 400 naming item_id, package_id or the crop, 404 for another child's photo", async () => {
    const owner = await testAccount();
    const studio = await sellingStudio(owner.token);
    const items = SHEET.items.map((i) => (i.kind === "print" ? { ...i, name: "8x10", product_id: studio.productId, allow_backgrounds: true } : i));
    expect((await call(sheetRoute, "PATCH", `/v1/price-sheets/${studio.sheetId}`, { token: owner.token, params: { id: studio.sheetId }, body: { items } })).status).toBe(200);
    const navy = (await call(backgroundsRoute, "POST", "/v1/production/backgrounds", { token: owner.token, body: { name: "Navy", color: "#1e3a5f" } })).json.id as string;
    // A portrait framed tight at the top (biden2.jpg less its top 48 rows: the hair runs off the top), 800 x 752.
    const tight = await sharp(fixture("biden2.jpg")).extract({ left: 0, top: 48, width: 800, height: 752 }).jpeg({ quality: 92 }).toBuffer();
    const kid = await childWithPhotos(owner.account.id, studio.agencyId, studio.jobId, [tight]);
    const other = await childWithPhotos(owner.account.id, studio.agencyId, studio.jobId, [fixture("obama.jpg")]);
    const db = await getDb();
    const face = (await photoFace(db, owner.account.id, kid.jobFileIds[0]!))!.faceBox;
    const ask = (token: string, photoId: string, query: string) => call(warningsRoute, "GET", `/v1/parent/photos/${photoId}/print-warnings?${query}`, { token, params: { photoId } });
    const photo = kid.photoIds[0]!;
    const crop = (c: { x: number; y: number; width: number; height: number }) => `x=${c.x}&y=${c.y}&width=${c.width}&height=${c.height}`;

    // The photo is landscape: an 8x10 prints as a 10x8. A box at that aspect, `height` of the photo tall, from `y`, about the face.
    const box = (y: number, height: number) => {
      const width = (height * 752 * 1.25) / 800;
      return { x: Math.min(1 - width, Math.max(0, face.x + face.width / 2 - width / 2)), y, width, height };
    };
    // The largest 10x8 from the photo's top.
    const top = box(0, 640 / 752);
    // No cut-out made yet: nothing said of the head (no engine runs while the parent waits).
    const cold = await ask(kid.token, photo, `item_id=p8x10&background_id=${navy}&${crop(top)}`);
    expect([cold.status, cold.json.warnings]).toEqual([200, []]);

    expect(await preparePreviewMattes(db, owner.account.id, kid.jobFileIds)).toBe(1);
    // The largest 10x8 from the photo's top, on navy: the hold's words.
    const whole = await ask(kid.token, photo, `item_id=p8x10&background_id=${navy}&${crop(top)}`);
    expect(whole.json).toEqual({ photo_id: photo, warnings: [{ code: "head_cut", message: HEAD_CUT_REASON, item_id: "p8x10" }] });
    // A package's prints take the line's crop: each print is judged and named (its digital file prints nothing).
    const pack = await ask(kid.token, photo, `package_id=pkgA&background_id=${navy}&${crop(top)}`);
    expect(pack.json).toEqual({ photo_id: photo, warnings: [{ code: "head_cut", message: `8x10: ${HEAD_CUT_REASON}`, item_id: "p8x10" }] });
    // Without a crop (the cart's package lines), each print starts as a single print's crop would and as
    // production renders it (print-crop.ts): the largest 10x8 moved to the face, here about 19 px below the photo's top,
    // so the photo's own cut is outside the print: nothing said.
    const start = faceStartCrop({ width: 800, height: 752, original_width: 800, original_height: 752 }, { width_in: 8, height_in: 10 }, (await photoFace(db, owner.account.id, kid.jobFileIds[0]!))!.frame);
    expect(start.y).toBeGreaterThan(0.01);
    expect((await ask(kid.token, photo, `package_id=pkgA&background_id=${navy}`)).json.warnings).toEqual([]);
    // As shot (no background), or a crop starting below the cut: nothing to check.
    expect((await ask(kid.token, photo, `item_id=p8x10&${crop(top)}`)).json.warnings).toEqual([]);
    expect((await ask(kid.token, photo, `item_id=p8x10&background_id=${navy}&${crop(box(0.05, 0.8))}`)).json.warnings).toEqual([]);

    // A crop whose top runs through the face: the face crosses the safe area at the top.
    const y = face.y + face.height * 0.2;
    const crossing = await ask(kid.token, photo, `item_id=p8x10&${crop(box(y, Math.min(1 - y, 0.6)))}`);
    expect(crossing.json.warnings).toHaveLength(1);
    expect(crossing.json.warnings[0].code).toBe("face_outside_safe_area");
    expect(crossing.json.warnings[0].message).toMatch(/^The child's face crosses the print's safe area \(where the crop puts the face: \d+(\.\d)? mm at the top; the face must be at least 3 mm inside the trim, where the lab's cut cannot reach\)\. Re-crop so the whole face is inside\.$/);

    // Bad asks: the item is not a print, missing, or the crop half given.
    for (const [query, field] of [["item_id=digital", "item_id"], ["", "item_id"], ["item_id=p8x10&x=0.1", "x"], ["item_id=p8x10&x=0.5&y=0&width=0.6&height=0.5", "width"], ["package_id=nope", "package_id"], ["item_id=p8x10&package_id=pkgA", "package_id"]] as const) {
      const bad = await ask(kid.token, photo, query);
      expect([query, bad.status, bad.json.details.fields[0].field]).toEqual([query, 400, field]);
    }
    // Another child's photo: 404, as an unknown one.
    expect((await ask(kid.token, other.photoIds[0]!, "item_id=p8x10")).status).toBe(404);
    expect((await ask(other.token, photo, "item_id=p8x10")).status).toBe(404);
  }, 240_000);
});
