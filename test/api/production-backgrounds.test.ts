import sharp from "sharp";
import { describe, expect, it } from "vitest";
import * as backgroundsRoute from "@/app/v1/production/backgrounds/route";
import * as backgroundRoute from "@/app/v1/production/backgrounds/[id]/route";
import * as sheetRoute from "@/app/v1/price-sheets/[id]/route";
import * as parentSheetRoute from "@/app/v1/parent/price-sheet/route";
import { getDb } from "@/lib/foundation/db/client";
import { studioBackgrounds } from "@/lib/foundation/db/schema";
import { storage } from "@/lib/domain/storage";
import { eq } from "drizzle-orm";
import { call, testAccount } from "../http";
import { SHEET } from "../support/orders-fixtures";
import { ordersHarness } from "../support/orders-harness";

// The studio's backgrounds through the routes (real storage, real image checks), and the
// parent's choice of one at checkout, validated on the server against the sheet and the set.
const { shop, checkout, orderOf } = ordersHarness();

const list = (token: string, query = "") => call(backgroundsRoute, "GET", `/v1/production/backgrounds${query}`, { token });
const addColor = (token: string, body: unknown) => call(backgroundsRoute, "POST", "/v1/production/backgrounds", { token, body });
function addImage(token: string, bytes: Buffer, name?: string, filename = "backdrop.png") {
  const form = new FormData();
  form.append("file", new File([new Uint8Array(bytes)], filename, { type: "image/png" }));
  if (name !== undefined) form.append("name", name);
  return call(backgroundsRoute, "POST", "/v1/production/backgrounds", { token, rawBody: form });
}
const remove = (token: string, id: string) => call(backgroundRoute, "DELETE", `/v1/production/backgrounds/${id}`, { token, params: { id } });

const backdrop = () => sharp({ create: { width: 300, height: 200, channels: 3, background: { r: 40, g: 90, b: 160 } } }).png().toBuffer();

describe("studio backgrounds", () => {
  it("keeps pictures and colours, lists them paginated, deletes them with their stored files, and refuses bad input naming the field", async () => {
    const { token } = await testAccount();
    const navy = await addColor(token, { name: "Navy", color: "#1E3A5F" });
    expect(navy.status, navy.text).toBe(201);
    expect(navy.json).toMatchObject({ id: expect.stringMatching(/^bkg_/), name: "Navy", kind: "color", color: "#1e3a5f", url: null, width: null });

    const picture = await addImage(token, await backdrop(), "Blue studio");
    expect(picture.status, picture.text).toBe(201);
    expect(picture.json).toMatchObject({ name: "Blue studio", kind: "image", color: null, width: 300, height: 200, url: expect.stringMatching(/^http/), thumbnail_url: expect.stringMatching(/^http/) });
    const [row] = await (await getDb()).select().from(studioBackgrounds).where(eq(studioBackgrounds.id, picture.json.id));
    const stored = (await storage().get(row!.storageKey!))!.body;
    expect(await sharp(stored).metadata()).toMatchObject({ width: 300, height: 200, format: "png" });

    const page1 = await list(token, "?limit=1");
    expect(page1.status).toBe(200);
    expect(page1.json.data.map((b: { id: string }) => b.id)).toEqual([picture.json.id]);
    expect(page1.json.meta.total).toBe(2);
    const page2 = await list(token, "?limit=1&page=2");
    expect(page2.json.data.map((b: { id: string }) => b.id)).toEqual([navy.json.id]);

    // Bad input: 4xx naming the field, nothing stored.
    const badColor = await addColor(token, { name: "Red", color: "red" });
    expect(badColor.status).toBe(400);
    expect(JSON.stringify(badColor.json)).toContain("color");
    expect((await addColor(token, { color: "#ffffff" })).json.details.fields[0].field).toBe("name");
    expect((await addColor(token, { name: "x", color: "#ffffff", price: 1 })).status).toBe(400);
    const noName = await addImage(token, await backdrop());
    expect([noName.status, noName.json.details.fields[0].field]).toEqual([400, "name"]);
    const notImage = await addImage(token, Buffer.from("%PDF-1.4 not a picture"), "Doc", "doc.png");
    expect([notImage.status, notImage.json.details.field]).toEqual([415, "file"]);
    expect((await list(token)).json.meta.total).toBe(2);

    // Another studio sees none of them and cannot delete them.
    const other = await testAccount();
    expect((await list(other.token)).json.meta.total).toBe(0);
    expect((await remove(other.token, picture.json.id)).status).toBe(404);

    const gone = await remove(token, picture.json.id);
    expect([gone.status, gone.json]).toEqual([200, { deleted: true }]);
    expect(await storage().get(row!.storageKey!)).toBeNull();
    expect(await storage().get(row!.thumbnailKey!)).toBeNull();
    expect((await remove(token, picture.json.id)).status).toBe(404);
    expect((await list(token)).json.data.map((b: { id: string }) => b.id)).toEqual([navy.json.id]);
  });
});

describe("a parent's background at checkout", () => {
  it("is stored on the line for a print that allows one, and refused (naming the line's field) elsewhere or when the studio has no such background", async () => {
    const { owner, studio, parent } = await shop();
    const items = SHEET.items.map((i) => (i.kind === "print" ? { ...i, product_id: studio.productId, allow_backgrounds: true } : i));
    const patched = await call(sheetRoute, "PATCH", `/v1/price-sheets/${studio.sheetId}`, { token: owner.token, params: { id: studio.sheetId }, body: { items } });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.json.items.map((i: { id: string; allow_backgrounds: boolean }) => [i.id, i.allow_backgrounds])).toEqual([
      ["p8x10", true],
      ["digital", false],
    ]);
    // A digital file cannot be composited.
    const digitalBg = await call(sheetRoute, "PATCH", `/v1/price-sheets/${studio.sheetId}`, { token: owner.token, params: { id: studio.sheetId }, body: { items: items.map((i) => ({ ...i, allow_backgrounds: true })) } });
    expect(digitalBg.status).toBe(400);
    expect(JSON.stringify(digitalBg.json)).toContain("items.1.allow_backgrounds");
    // The storefront learns which items allow one.
    const forParent = await call(parentSheetRoute, "GET", "/v1/parent/price-sheet", { token: parent.token });
    expect(forParent.json.items.find((i: { id: string }) => i.id === "p8x10").allow_backgrounds).toBe(true);

    const navy = (await addColor(owner.token, { name: "Navy", color: "#1e3a5f" })).json.id as string;
    const offered = await call(parentSheetRoute, "GET", "/v1/parent/price-sheet", { token: parent.token });
    expect(offered.json.backgrounds).toEqual([{ id: navy, name: "Navy", kind: "color", color: "#1e3a5f", thumbnail_url: null }]);
    const elsewhere = (await addColor((await testAccount()).token, { name: "Theirs", color: "#000000" })).json.id as string;
    const base = { email: "parent@example.com", shipping_option_id: "school" };

    const onDigital = await checkout(parent.token, { ...base, lines: [{ photo_id: parent.photoIds[0], item_id: "digital", quantity: 1, background_id: navy }] });
    expect(onDigital.status).toBe(400);
    expect(JSON.stringify(onDigital.json)).toContain("lines.0.background_id");
    const foreign = await checkout(parent.token, { ...base, lines: [{ photo_id: parent.photoIds[0], item_id: "p8x10", quantity: 1, background_id: elsewhere }] });
    expect(foreign.status).toBe(400);
    expect(JSON.stringify(foreign.json)).toContain("lines.0.background_id");

    const ok = await checkout(parent.token, {
      ...base,
      lines: [
        { photo_id: parent.photoIds[0], item_id: "p8x10", quantity: 1, background_id: navy },
        { photo_id: parent.photoIds[1], package_id: "pkgA", quantity: 1, background_id: navy },
        { photo_id: parent.photoIds[1], item_id: "p8x10", quantity: 1 },
      ],
    });
    expect(ok.status, ok.text).toBe(201);
    const order = await orderOf(owner.token, ok.json.order_id);
    expect(order.json.items.map((i: { background_id: string | null }) => i.background_id)).toEqual([navy, navy, null]);
  });
});
