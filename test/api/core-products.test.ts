import { beforeAll, describe, expect, it } from "vitest";
import * as productsRoute from "@/app/v1/products/route";
import * as productRoute from "@/app/v1/products/[id]/route";
import * as projectsRoute from "@/app/v1/projects/route";
import * as projectRoute from "@/app/v1/projects/[id]/route";
import { eq } from "drizzle-orm";
import { getDb } from "@/lib/foundation/db/client";
import { accounts, products, projects } from "@/lib/foundation/db/schema";
import { call, testAccount } from "../http";
import { productBody } from "./core-fixtures";

const byId = (id: string) => ({ params: { id } });

// Open (and migrate) the database under the hook timeout, not the first test's.
beforeAll(async () => {
  await getDb();
});

describe("products", () => {
  it("creates with defaults, reads, updates, archives and deletes a product", async () => {
    const { token } = await testAccount();
    const created = await call(productsRoute, "POST", "/v1/products", { token, body: productBody({ sku: "CANVAS-16x20", name: "Gallery canvas", width_in: 16.5, currency: "eur" }) });
    expect(created.status).toBe(201);
    expect(created.json).toEqual({
      id: expect.stringMatching(/^prd_/),
      sku: "CANVAS-16x20",
      name: "Gallery canvas",
      product_type: "photo_on_canvas",
      width_in: 16.5,
      height_in: 20,
      bleed_mm: 3,
      min_ppi: 100, // preflight's minimum for photo_on_canvas
      color_mode: "cmyk",
      price: 4999,
      currency: "EUR",
      status: "active",
      is_public: false,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const id = created.json.id;

    const got = await call(productRoute, "GET", `/v1/products/${id}`, { token, ...byId(id) });
    expect(got.status).toBe(200);
    expect(got.json).toEqual(created.json);

    const patched = await call(productRoute, "PATCH", `/v1/products/${id}`, { token, ...byId(id), body: { price: 5999, is_public: true, bleed_mm: 3.18 } });
    expect(patched.status).toBe(200);
    expect(patched.json).toMatchObject({ price: 5999, is_public: true, bleed_mm: 3.18, sku: "CANVAS-16x20" });
    expect(Date.parse(patched.json.updated_at)).toBeGreaterThanOrEqual(Date.parse(created.json.updated_at));

    const archived = await call(productRoute, "PATCH", `/v1/products/${id}`, { token, ...byId(id), body: { status: "archived" } });
    expect(archived.json.status).toBe("archived");

    expect((await call(productRoute, "DELETE", `/v1/products/${id}`, { token, ...byId(id) })).status).toBe(204);
    expect((await call(productRoute, "GET", `/v1/products/${id}`, { token, ...byId(id) })).status).toBe(404);
    expect((await call(productRoute, "DELETE", `/v1/products/${id}`, { token, ...byId(id) })).status).toBe(404);
  });

  it("defaults min_ppi to preflight's minimum for the product type, and keeps a given one", async () => {
    const { token } = await testAccount();
    const poster = await call(productsRoute, "POST", "/v1/products", { token, body: productBody({ product_type: "poster" }) });
    expect(poster.json.min_ppi).toBe(75);
    const framed = await call(productsRoute, "POST", "/v1/products", { token, body: productBody({ product_type: "framed_print", min_ppi: 300 }) });
    expect(framed.json.min_ppi).toBe(300);
  });

  it("keeps SKUs unique per account (409 naming sku), not across accounts", async () => {
    const a = await testAccount();
    const b = await testAccount();
    const first = await call(productsRoute, "POST", "/v1/products", { token: a.token, body: productBody({ sku: "POSTER-A2" }) });
    expect(first.status).toBe(201);
    const dup = await call(productsRoute, "POST", "/v1/products", { token: a.token, body: productBody({ sku: "POSTER-A2" }) });
    expect(dup.status).toBe(409);
    expect(dup.json).toMatchObject({ error: "SKU_TAKEN", details: { field: "sku" } });
    expect((await call(productsRoute, "POST", "/v1/products", { token: b.token, body: productBody({ sku: "POSTER-A2" }) })).status).toBe(201);

    const other = await call(productsRoute, "POST", "/v1/products", { token: a.token, body: productBody({ sku: "POSTER-A3" }) });
    const renamed = await call(productRoute, "PATCH", "/v1/products/x", { token: a.token, ...byId(other.json.id), body: { sku: "POSTER-A2" } });
    expect(renamed.status).toBe(409);
    expect(renamed.json.details.field).toBe("sku");
  });

  it("answers another account's product with 404 on read, update and delete, and leaves it untouched", async () => {
    const owner = await testAccount();
    const other = await testAccount();
    const created = await call(productsRoute, "POST", "/v1/products", { token: owner.token, body: productBody() });
    const id = created.json.id;
    expect((await call(productRoute, "GET", "/v1/products/x", { token: other.token, ...byId(id) })).status).toBe(404);
    const patch = await call(productRoute, "PATCH", "/v1/products/x", { token: other.token, ...byId(id), body: { name: "mine now" } });
    expect(patch.status).toBe(404);
    expect(patch.json.error).toBe("NOT_FOUND");
    expect((await call(productRoute, "DELETE", "/v1/products/x", { token: other.token, ...byId(id) })).status).toBe(404);
    const list = await call(productsRoute, "GET", "/v1/products", { token: other.token });
    expect(list.json.data).toEqual([]);
    const still = await call(productRoute, "GET", "/v1/products/x", { token: owner.token, ...byId(id) });
    expect(still.json.name).toBe(created.json.name);
  });

  it("refuses to delete a product that projects use (409), and allows it once they are gone", async () => {
    const { token } = await testAccount();
    const product = await call(productsRoute, "POST", "/v1/products", { token, body: productBody() });
    const p1 = await call(projectsRoute, "POST", "/v1/projects", { token, body: { name: "Wedding canvas", product_id: product.json.id } });
    const p2 = await call(projectsRoute, "POST", "/v1/projects", { token, body: { name: "Baby photos", product_id: product.json.id } });
    const refused = await call(productRoute, "DELETE", "/v1/products/x", { token, ...byId(product.json.id) });
    expect(refused.status).toBe(409);
    expect(refused.json.error).toBe("PRODUCT_IN_USE");
    expect(refused.json.message).toMatch(/2 projects use this product/);
    for (const p of [p1, p2]) expect((await call(projectRoute, "DELETE", "/v1/projects/x", { token, ...byId(p.json.id) })).status).toBe(204);
    expect((await call(productRoute, "DELETE", "/v1/products/x", { token, ...byId(product.json.id) })).status).toBe(204);
  });

  it("removes an account's products and projects with the account (the product link does not block it)", async () => {
    const { token, account } = await testAccount();
    const product = await call(productsRoute, "POST", "/v1/products", { token, body: productBody() });
    await call(projectsRoute, "POST", "/v1/projects", { token, body: { name: "p", product_id: product.json.id } });
    const db = await getDb();
    await db.delete(accounts).where(eq(accounts.id, account.id));
    expect(await db.select().from(products).where(eq(products.accountId, account.id))).toEqual([]);
    expect(await db.select().from(projects).where(eq(projects.accountId, account.id))).toEqual([]);
  });

  it("names every invalid field, and rejects unknown fields", async () => {
    const { token } = await testAccount();
    const bad = await call(productsRoute, "POST", "/v1/products", {
      token,
      body: {
        sku: "has space",
        name: " ",
        product_type: "mug",
        width_in: -1,
        height_in: 10.12345,
        bleed_mm: 51,
        min_ppi: 72.5,
        color_mode: "pantone",
        price: 19.99,
        currency: "ZZZ",
        is_public: "yes",
      },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toBe("VALIDATION_ERROR");
    const fields = bad.json.details.fields.map((f: { field: string }) => f.field).sort();
    expect(fields).toEqual(["bleed_mm", "color_mode", "currency", "height_in", "is_public", "min_ppi", "name", "price", "product_type", "sku", "width_in"]);
    expect(bad.json.details.fields.find((f: { field: string }) => f.field === "price").message).toMatch(/minor units/);

    const missing = await call(productsRoute, "POST", "/v1/products", { token, body: {} });
    expect(missing.json.details.fields.map((f: { field: string }) => f.field).sort()).toEqual(["currency", "height_in", "name", "price", "product_type", "sku", "width_in"]);

    const unknown = await call(productsRoute, "POST", "/v1/products", { token, body: productBody({ colour: "red" }) });
    expect(unknown.status).toBe(400);
    expect(unknown.json.details.fields).toEqual([{ field: "colour", message: expect.stringMatching(/Unknown field/) }]);

    const created = await call(productsRoute, "POST", "/v1/products", { token, body: productBody() });
    const empty = await call(productRoute, "PATCH", "/v1/products/x", { token, ...byId(created.json.id), body: {} });
    expect(empty.status).toBe(400);
    expect(empty.json.message).toMatch(/at least one field/);
    const unknownPatch = await call(productRoute, "PATCH", "/v1/products/x", { token, ...byId(created.json.id), body: { id: "prd_other" } });
    expect(unknownPatch.json.details.fields[0].field).toBe("id");
    const badStatus = await call(productRoute, "PATCH", "/v1/products/x", { token, ...byId(created.json.id), body: { status: "deleted" } });
    expect(badStatus.json.details.fields[0].field).toBe("status");
  });

  it("needs credentials, and answers unsupported methods with 405", async () => {
    expect((await call(productsRoute, "GET", "/v1/products")).status).toBe(401);
    expect((await call(productsRoute, "POST", "/v1/products", { body: productBody() })).status).toBe(401);
    const { token } = await testAccount();
    const put = await call(productsRoute, "PUT", "/v1/products", { token });
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toBe("GET, POST");
  });
});
