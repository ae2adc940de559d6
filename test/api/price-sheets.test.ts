import { describe, expect, it } from "vitest";
import * as sheetsRoute from "@/app/v1/price-sheets/route";
import * as sheetRoute from "@/app/v1/price-sheets/[id]/route";
import * as promosRoute from "@/app/v1/price-sheets/[id]/promo-codes/route";
import * as promoRoute from "@/app/v1/price-sheets/[id]/promo-codes/[codeId]/route";
import * as jobSheetRoute from "@/app/v1/services/studio/agencies/[agencyId]/jobs/[jobId]/price-sheet/route";
import { call, testAccount } from "../http";
import { SHEET, sellingStudio } from "../support/orders-fixtures";

describe("price sheets", () => {
  it("creates a sheet on the studio's products, with the product's size for each print, and reads it back", async () => {
    const { token } = await testAccount();
    const { sheet, productId, agencyId, jobId } = await sellingStudio(token);
    expect(sheet).toMatchObject({ name: SHEET.name, currency: "usd", tax_rate_bps: 825 });
    expect(sheet.items[0]).toEqual({ id: "p8x10", kind: "print", product_id: productId, name: "8x10 print", price: 1500, lab_cost: 300, allow_backgrounds: false, product: { width_in: 8, height_in: 10, bleed_mm: expect.any(Number), min_ppi: expect.any(Number), product_type: "photo_on_canvas" } });
    expect(sheet.items[1]).toMatchObject({ id: "digital", kind: "digital", product_id: null, product: null });
    expect(sheet.shipping).toEqual(SHEET.shipping);
    const list = await call(sheetsRoute, "GET", "/v1/price-sheets", { token });
    expect(list.json.data.map((s: { id: string }) => s.id)).toEqual([sheet.id]);
    const job = await call(jobSheetRoute, "GET", `/v1/services/studio/agencies/${agencyId}/jobs/${jobId}/price-sheet`, { token, params: { agencyId, jobId } });
    expect(job.json).toEqual({ job_id: Number(jobId), price_sheet_id: sheet.id });
    // In use by a job: not deleted.
    const del = await call(sheetRoute, "DELETE", `/v1/price-sheets/${sheet.id}`, { token, params: { id: sheet.id } });
    expect([del.status, del.json.error]).toEqual([409, "PRICE_SHEET_IN_USE"]);
  });

  it("changes prices and keeps line ids; bad input is a 400 naming the field", async () => {
    const { token } = await testAccount();
    const { sheet } = await sellingStudio(token);
    const patch = (body: unknown) => call(sheetRoute, "PATCH", `/v1/price-sheets/${sheet.id}`, { token, params: { id: sheet.id }, body });
    const items = sheet.items.map((i: Record<string, unknown>) => ({ id: i.id, kind: i.kind, product_id: i.product_id, name: i.name, price: i.id === "p8x10" ? 1800 : i.price, lab_cost: i.lab_cost }));
    const ok = await patch({ items, tax_rate_bps: 0 });
    expect(ok.status).toBe(200);
    expect(ok.json.items[0]).toMatchObject({ id: "p8x10", price: 1800 });
    expect(ok.json.packages[0].id).toBe("pkgA");

    const cases: [unknown, string][] = [
      [{ tax_rate_bps: 20_000 }, "tax_rate_bps"],
      [{ items: [{ kind: "print", price: 100, lab_cost: 1 }] }, "items.0.product_id"],
      [{ items: [{ kind: "print", product_id: "prd_nope", price: 100, lab_cost: 1 }] }, "items.0.product_id"],
      [{ items: [{ kind: "digital", price: -1, lab_cost: 0 }] }, "items.0.price"],
      [{ packages: [{ name: "X", price: 1, items: [{ item_id: "nope", quantity: 1 }] }] }, "packages.0.items.0.item_id"],
      [{ shipping: [{ type: "school", name: "School" }] }, "shipping.0.batch_date"],
      [{ currency: "xyz" }, "currency"],
      [{ colour: "red" }, "colour"],
    ];
    for (const [body, field] of cases) {
      const res = await patch(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.details.fields.map((f: { field: string }) => f.field), JSON.stringify(body)).toContain(field);
    }
  });

  it("promo codes: created once per code, listed with uses, deleted", async () => {
    const { token } = await testAccount();
    const { sheetId } = await sellingStudio(token);
    const path = `/v1/price-sheets/${sheetId}/promo-codes`;
    const made = await call(promosRoute, "POST", path, { token, params: { id: sheetId }, body: { code: "spring10", kind: "percent", value: 10, max_uses: 5 } });
    expect(made.status).toBe(201);
    expect(made.json).toMatchObject({ code: "SPRING10", kind: "percent", value: 10, max_uses: 5, uses: 0, expires_at: null });
    const again = await call(promosRoute, "POST", path, { token, params: { id: sheetId }, body: { code: "SPRING10", kind: "amount", value: 500 } });
    expect([again.status, again.json.error]).toEqual([409, "PROMO_CODE_TAKEN"]);
    const bad = await call(promosRoute, "POST", path, { token, params: { id: sheetId }, body: { code: "X1", kind: "percent", value: 150 } });
    expect(bad.json.details.fields.map((f: { field: string }) => f.field)).toEqual(expect.arrayContaining(["code", "value"]));
    expect((await call(promosRoute, "GET", path, { token, params: { id: sheetId } })).json.data).toHaveLength(1);
    const del = await call(promoRoute, "DELETE", `${path}/${made.json.id}`, { token, params: { id: sheetId, codeId: made.json.id } });
    expect(del.json).toEqual({ deleted: true });
  });

  it("another studio's sheet, promo codes and job are 404", async () => {
    const a = await testAccount();
    const b = await testAccount();
    const { sheetId, agencyId, jobId } = await sellingStudio(a.token);
    expect((await call(sheetRoute, "GET", `/v1/price-sheets/${sheetId}`, { token: b.token, params: { id: sheetId } })).status).toBe(404);
    expect((await call(sheetRoute, "PATCH", `/v1/price-sheets/${sheetId}`, { token: b.token, params: { id: sheetId }, body: { name: "Mine" } })).status).toBe(404);
    expect((await call(sheetRoute, "DELETE", `/v1/price-sheets/${sheetId}`, { token: b.token, params: { id: sheetId } })).status).toBe(404);
    expect((await call(promosRoute, "GET", `/v1/price-sheets/${sheetId}/promo-codes`, { token: b.token, params: { id: sheetId } })).status).toBe(404);
    expect((await call(jobSheetRoute, "GET", `/v1/services/studio/agencies/${agencyId}/jobs/${jobId}/price-sheet`, { token: b.token, params: { agencyId, jobId } })).status).toBe(404);
    // B cannot give A's sheet to its own job either.
    const mine = await sellingStudio(b.token);
    const put = await call(jobSheetRoute, "PUT", `/v1/services/studio/agencies/${mine.agencyId}/jobs/${mine.jobId}/price-sheet`, { token: b.token, params: { agencyId: mine.agencyId, jobId: mine.jobId }, body: { price_sheet_id: sheetId } });
    expect([put.status, put.json.details.fields[0].field]).toEqual([400, "price_sheet_id"]);
  });
});
