import { beforeAll, describe, expect, it } from "vitest";
import * as productsRoute from "@/app/v1/products/route";
import * as productRoute from "@/app/v1/products/[id]/route";
import { getDb } from "@/lib/foundation/db/client";
import { products } from "@/lib/foundation/db/schema";
import { resetConfig } from "@/lib/foundation/config";
import { resetRateLimiter } from "@/lib/http/rate-limit";
import { newId } from "@/lib/foundation/ids";
import { call, testAccount } from "../http";
import { productBody } from "./core-fixtures";

// Hundreds of list calls from one account: lift the per-minute limit for this file.
process.env.RATE_LIMIT_PER_MINUTE = "1000000";
resetConfig();
resetRateLimiter();

type Item = { id: string; name: string; status: string; created_at: string; updated_at: string };
let token: string;
let otherToken: string;
const TOTAL = 250;

/** 250 products in 5 multi-row INSERTs: rows of one statement share created_at/updated_at, and names repeat 25 times. */
beforeAll(async () => {
  const db = await getDb();
  const a = await testAccount();
  const b = await testAccount();
  token = a.token;
  otherToken = b.token;
  for (let batch = 0; batch < 5; batch++) {
    await db.insert(products).values(
      Array.from({ length: 50 }, (_, j) => {
        const i = batch * 50 + j;
        return {
          id: newId("prd"),
          accountId: a.account.id,
          sku: `SKU-${i}`,
          name: `Print ${String(i % 10).padStart(2, "0")}`,
          productType: "poster",
          widthIn: 18,
          heightIn: 24,
          bleedMm: 3,
          minPpi: 150,
          colorMode: "cmyk",
          price: 1000 + i,
          currency: "USD",
          status: i % 3 === 0 ? "archived" : "active",
          isPublic: i % 2 === 0,
        };
      }),
    );
  }
  // Another account's products never show up in these lists.
  await call(productsRoute, "POST", "/v1/products", { token: b.token, body: productBody({ name: "Print 00" }) });
});

const pathOf = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

async function get(path: string, t = token) {
  return call(productsRoute, "GET", path, { token: t });
}

/** Follows links.next from `path` (or links.prev from its last page) and returns every record seen, in list order. */
async function walk(path: string, direction: "next" | "prev" = "next") {
  let res = await get(path);
  expect(res.status).toBe(200);
  if (direction === "prev") res = await get(pathOf(res.json.links.last));
  const pages: Item[][] = [];
  for (let guard = 0; guard < 1000; guard++) {
    expect(res.status).toBe(200);
    pages.push(res.json.data);
    const link = res.json.links[direction];
    if (!link) break;
    res = await get(pathOf(link));
  }
  if (direction === "prev") pages.reverse();
  return { items: pages.flat(), pages: pages.length };
}

function expectSorted(items: Item[], sortBy: string, order: string) {
  const value = (i: Item) => (sortBy === "name" ? i.name : Date.parse(sortBy === "created_at" ? i.created_at : i.updated_at));
  for (let k = 1; k < items.length; k++) {
    const [a, b] = [value(items[k - 1]!), value(items[k]!)];
    if (order === "asc") expect(a <= b).toBe(true);
    else expect(a >= b).toBe(true);
  }
}

describe("core list envelope and keyset links", () => {
  it("has the contract's envelope, 20 per page by default, absolute links and no prev on the first page", async () => {
    const res = await get("/v1/products");
    expect(res.status).toBe(200);
    expect(Object.keys(res.json).sort()).toEqual(["data", "links", "message", "meta"]);
    expect(res.json.data).toHaveLength(20);
    expect(res.json.meta).toEqual({ path: "http://localhost:3000/v1/products", per_page: 20, sort_by: "created_at", order: "desc" });
    expect(res.json.message).toBe("Retrieved 20 products.");
    expect(res.json.links.prev).toBeNull();
    for (const k of ["first", "last", "next"]) expect(res.json.links[k]).toMatch(/^http:\/\/localhost:3000\/v1\/products\?limit=20&sortBy=created_at&order=desc/);
    expect(res.json.links.next).toContain("cursor=");
    expect(res.json.links.first).not.toContain("cursor=");
    const last = await get(pathOf(res.json.links.last));
    expect(last.json.data).toHaveLength(20);
    expect(last.json.links.next).toBeNull();
    expect(last.json.links.prev).toContain("cursor=");
  });

  it("walks all 250 records exactly once, forwards and backwards, for every sort, order and several limits, despite ties", async () => {
    const all = new Set<string>();
    for (const sortBy of ["created_at", "updated_at", "name"]) {
      const byOrder: Record<string, string[]> = {};
      for (const order of ["asc", "desc"]) {
        for (const limit of [7, 20, 100]) {
          const fwd = await walk(`/v1/products?sortBy=${sortBy}&order=${order}&limit=${limit}`);
          const ids = fwd.items.map((i) => i.id);
          expect(ids).toHaveLength(TOTAL);
          expect(new Set(ids).size).toBe(TOTAL);
          expect(fwd.pages).toBe(Math.ceil(TOTAL / limit));
          expectSorted(fwd.items, sortBy, order);
          const back = await walk(`/v1/products?sortBy=${sortBy}&order=${order}&limit=${limit}`, "prev");
          expect(back.items.map((i) => i.id)).toEqual(ids);
          byOrder[order] ??= ids;
          expect(ids).toEqual(byOrder[order]);
          ids.forEach((id) => all.add(id));
        }
      }
      // The tie-breaker reverses with the order, so desc is exactly asc reversed.
      expect(byOrder.desc).toEqual([...byOrder.asc!].reverse());
    }
    expect(all.size).toBe(TOTAL);
  });

  it("walks one record per page (limit=1) both ways", async () => {
    const fwd = await walk("/v1/products?limit=1");
    expect(fwd.items).toHaveLength(TOTAL);
    expect(new Set(fwd.items.map((i) => i.id)).size).toBe(TOTAL);
    const back = await walk("/v1/products?limit=1", "prev");
    expect(back.items.map((i) => i.id)).toEqual(fwd.items.map((i) => i.id));
  });

  it("returns 100 at limit=100 and refuses limits outside 1..100, fractions, words, repeats and page", async () => {
    const max = await get("/v1/products?limit=100");
    expect(max.json.data).toHaveLength(100);
    expect(max.json.meta.per_page).toBe(100);
    for (const q of ["limit=0", "limit=101", "limit=-1", "limit=1.5", "limit=abc", "limit=", "limit=10&limit=20"]) {
      const res = await get(`/v1/products?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.json.error).toBe("VALIDATION_ERROR");
      expect(res.json.details.in).toBe("query");
      expect(res.json.details.fields[0].field).toBe("limit");
    }
    const page = await get("/v1/products?page=2");
    expect(page.status).toBe(400);
    expect(page.json.details.fields[0]).toEqual({ field: "page", message: expect.stringMatching(/Unknown field/) });
  });

  it("rejects a forged cursor and a cursor used with another sort, naming cursor", async () => {
    const forged = await get("/v1/products?cursor=not-a-cursor");
    expect(forged.status).toBe(400);
    expect(forged.json.details.fields[0].field).toBe("cursor");
    const tampered = await get(`/v1/products?cursor=${Buffer.from('["a","name","asc",7,"x"]').toString("base64url")}&sortBy=name`);
    expect(tampered.status).toBe(400);
    const first = await get("/v1/products?sortBy=name");
    const next = new URL(first.json.links.next).searchParams.get("cursor")!;
    const mismatch = await get(`/v1/products?sortBy=created_at&cursor=${next}`);
    expect(mismatch.status).toBe(400);
    expect(mismatch.json.details.fields[0]).toEqual({ field: "cursor", message: expect.stringMatching(/sorted by name asc/) });
  });

  it("filters by status, keeps the filter in every link, and names a bad filter or sort", async () => {
    const archived = await walk("/v1/products?status=archived&limit=30&sortBy=name");
    expect(archived.items).toHaveLength(84);
    expect(archived.items.every((i) => i.status === "archived")).toBe(true);
    expectSorted(archived.items, "name", "asc");
    const active = await walk("/v1/products?status=active&limit=100");
    expect(active.items).toHaveLength(TOTAL - 84);
    expect(active.items.every((i) => i.status === "active")).toBe(true);
    const first = await get("/v1/products?status=archived&limit=5");
    for (const k of ["first", "last", "next"]) expect(new URL(first.json.links[k]).searchParams.get("status")).toBe("archived");

    for (const [q, field] of [
      ["status=deleted", "status"],
      ["sortBy=price", "sortBy"],
      ["sortBy=created", "sortBy"],
      ["order=up", "order"],
      ["colour=red", "colour"],
    ]) {
      const res = await get(`/v1/products?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.json.details.fields[0].field).toBe(field);
    }
  });

  it("defaults to newest first for timestamps and A to Z for names", async () => {
    const byName = await get("/v1/products?sortBy=name&limit=3");
    expect(byName.json.meta.order).toBe("asc");
    expect(byName.json.data.map((i: Item) => i.name)).toEqual(["Print 00", "Print 00", "Print 00"]);
    const byCreated = await get("/v1/products?limit=100");
    expectSorted(byCreated.json.data, "created_at", "desc");
  });

  it("does not shift or repeat records when products are created during a walk", async () => {
    const first = await get("/v1/products?limit=50");
    const seen = first.json.data.map((i: Item) => i.id);
    // Newest-first: new products sort before the cursor and must not push old ones onto the next page.
    for (let k = 0; k < 3; k++) await call(productsRoute, "POST", "/v1/products", { token, body: productBody() });
    let link = first.json.links.next;
    while (link) {
      const res = await get(pathOf(link));
      seen.push(...res.json.data.map((i: Item) => i.id));
      link = res.json.links.next;
    }
    expect(seen).toHaveLength(TOTAL);
    expect(new Set(seen).size).toBe(TOTAL);
  });

  it("keeps links usable when the records around a cursor are deleted", async () => {
    const acc = await testAccount();
    const ids: string[] = [];
    for (let k = 0; k < 6; k++) ids.push((await call(productsRoute, "POST", "/v1/products", { token: acc.token, body: productBody({ name: `N${k}` }) })).json.id);
    const list = (path: string) => call(productsRoute, "GET", path, { token: acc.token });
    const del = (id: string) => call(productRoute, "DELETE", "/v1/products/x", { token: acc.token, params: { id } });
    const names = (res: { json: { data: Item[] } }) => res.json.data.map((i) => i.name);

    const page1 = await list("/v1/products?sortBy=name&limit=2");
    expect(names(page1)).toEqual(["N0", "N1"]);
    // Everything after the cursor goes: the next page is empty, and prev leads to the (new) last page.
    for (const id of ids.slice(2)) await del(id);
    const empty = await list(pathOf(page1.json.links.next));
    expect(empty.json.data).toEqual([]);
    expect(empty.json.links.next).toBeNull();
    expect(names(await list(pathOf(empty.json.links.prev)))).toEqual(["N0", "N1"]);

    // Before the start: from the last page, prev after deleting everything before it leads nowhere but next to the first page.
    for (let k = 6; k < 10; k++) ids.push((await call(productsRoute, "POST", "/v1/products", { token: acc.token, body: productBody({ name: `N${k}` }) })).json.id);
    const lastPage = await list(pathOf(page1.json.links.last));
    expect(names(lastPage)).toEqual(["N8", "N9"]);
    for (const id of [ids[0]!, ids[1]!, ids[6]!, ids[7]!]) await del(id);
    const before = await list(pathOf(lastPage.json.links.prev));
    expect(before.json.data).toEqual([]);
    expect(before.json.links.prev).toBeNull();
    expect(names(await list(pathOf(before.json.links.next)))).toEqual(["N8", "N9"]);
  });

  it("answers an account without products with an empty page and no prev/next", async () => {
    const { token: fresh } = await testAccount();
    const res = await get("/v1/products", fresh);
    expect(res.json.data).toEqual([]);
    expect(res.json.links.prev).toBeNull();
    expect(res.json.links.next).toBeNull();
    expect(res.json.links.first).toBeTruthy();
    const last = await get(pathOf(res.json.links.last), fresh);
    expect(last.json.data).toEqual([]);
    expect(last.json.links.prev).toBeNull();
    const other = await get("/v1/products?limit=100", otherToken);
    expect(other.json.data).toHaveLength(1);
  });
});
