import { eq } from "drizzle-orm";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import * as productsRoute from "@/app/v1/products/route";
import * as productRoute from "@/app/v1/products/[id]/route";
import * as projectsRoute from "@/app/v1/projects/route";
import * as projectRoute from "@/app/v1/projects/[id]/route";
import * as uploadsRoute from "@/app/v1/uploads/route";
import * as checksRoute from "@/app/v1/services/preflight/checks/route";
import * as reportRoute from "@/app/v1/services/preflight/checks/[reportId]/route";
import { resetConfig } from "@/lib/foundation/config";
import { getDb } from "@/lib/foundation/db/client";
import { resetRateLimiter } from "@/lib/http/rate-limit";
import { preflightReports } from "@/lib/foundation/db/schema";
import { newId } from "@/lib/foundation/ids";
import { PROJECT_STATUSES, PROJECT_TRANSITIONS, type ProjectStatus } from "@/lib/services/core/project-status";
import { call, testAccount } from "../http";
import { productBody } from "./core-fixtures";

// The transition matrix alone makes over 100 calls from one account: lift the per-minute limit here.
process.env.RATE_LIMIT_PER_MINUTE = "1000000";
resetConfig();
resetRateLimiter();

const byId = (id: string) => ({ params: { id } });

async function setup() {
  const acc = await testAccount();
  const product = await call(productsRoute, "POST", "/v1/products", { token: acc.token, body: productBody() });
  return { ...acc, productId: product.json.id as string };
}

async function createProject(token: string, productId: string, extra: Record<string, unknown> = {}) {
  const res = await call(projectsRoute, "POST", "/v1/projects", { token, body: { name: "Family portrait", product_id: productId, ...extra } });
  expect(res.status).toBe(201);
  return res.json as { id: string; status: ProjectStatus };
}

const move = (token: string, id: string, status: string) => call(projectRoute, "PATCH", "/v1/projects/x", { token, ...byId(id), body: { status } });

/** A stored preflight report row, as the preflight service writes it. */
async function preflightReport(accountId: string) {
  const id = newId("rpt");
  const db = await getDb();
  await db.insert(preflightReports).values({
    id,
    accountId,
    designId: "design-1",
    status: "pass",
    fileType: "pdf",
    fileMime: "application/pdf",
    fileSize: 1234,
    fileStorageKey: `preflight/${id}.pdf`,
    params: {},
    facts: {},
    issues: [],
    analysisMs: 5,
  });
  return id;
}

// Open (and migrate) the database under the hook timeout, not the first test's.
beforeAll(async () => {
  await getDb();
});

describe("projects", () => {
  it("creates a draft from a product, reads, edits and deletes it", async () => {
    const { token, productId } = await setup();
    const res = await call(projectsRoute, "POST", "/v1/projects", {
      token,
      body: { name: " Smith wedding ", product_id: productId, design_file_url: "https://files.example.com/smith.pdf", customer_email: "Ann.Smith@Example.com" },
    });
    expect(res.status).toBe(201);
    expect(res.json).toEqual({
      id: expect.stringMatching(/^prj_/),
      name: "Smith wedding",
      product_id: productId,
      status: "draft",
      design_file_url: "https://files.example.com/smith.pdf",
      preflight_report_id: null,
      customer_email: "ann.smith@example.com",
      preflight_overrides: [],
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const got = await call(projectRoute, "GET", "/v1/projects/x", { token, ...byId(res.json.id) });
    expect(got.json).toEqual(res.json);
    const edited = await call(projectRoute, "PATCH", "/v1/projects/x", { token, ...byId(res.json.id), body: { name: "Smith wedding (album)", design_file_url: null } });
    expect(edited.status).toBe(200);
    expect(edited.json).toMatchObject({ name: "Smith wedding (album)", design_file_url: null, status: "draft" });
    expect((await call(projectRoute, "DELETE", "/v1/projects/x", { token, ...byId(res.json.id) })).status).toBe(204);
    expect((await call(projectRoute, "GET", "/v1/projects/x", { token, ...byId(res.json.id) })).status).toBe(404);
  });

  it("moves draft -> submitted -> approved -> in_production -> shipped, and a shipped project is closed", async () => {
    const { token, productId } = await setup();
    const p = await createProject(token, productId);
    for (const status of ["submitted", "approved", "in_production", "shipped"]) {
      const res = await move(token, p.id, status);
      expect(res.status, status).toBe(200);
      expect(res.json.status).toBe(status);
    }
    const cancel = await move(token, p.id, "cancelled");
    expect(cancel.status).toBe(409);
    expect(cancel.json).toMatchObject({ error: "PROJECT_CLOSED", details: { field: "status", status: "shipped" } });
    const rename = await call(projectRoute, "PATCH", "/v1/projects/x", { token, ...byId(p.id), body: { name: "later" } });
    expect(rename.status).toBe(409);
  });

  it("enforces the transition table for every pair of states", async () => {
    const { token, productId } = await setup();
    const path: ProjectStatus[] = ["draft", "submitted", "approved", "in_production", "shipped"];
    // A project in `from`: created as draft, walked forward along the main path (or cancelled).
    async function projectIn(from: ProjectStatus) {
      const p = await createProject(token, productId);
      const steps = from === "cancelled" ? ["cancelled"] : path.slice(1, path.indexOf(from) + 1);
      for (const s of steps) expect((await move(token, p.id, s)).status).toBe(200);
      return p.id;
    }
    for (const from of PROJECT_STATUSES) {
      for (const to of PROJECT_STATUSES) {
        if (to === from) continue;
        const id = await projectIn(from);
        const res = await move(token, id, to);
        const allowed = PROJECT_TRANSITIONS[from].includes(to);
        expect(res.status, `${from} -> ${to}`).toBe(allowed ? 200 : 409);
        if (!allowed && PROJECT_TRANSITIONS[from].length > 0) {
          expect(res.json).toMatchObject({ error: "INVALID_STATUS_TRANSITION", details: { field: "status", from, to, allowed: PROJECT_TRANSITIONS[from] } });
          expect(res.json.message).toContain(`from ${from} to ${to}`);
        }
        if (!allowed && PROJECT_TRANSITIONS[from].length === 0) expect(res.json.error).toBe("PROJECT_CLOSED");
      }
    }
  }, 120_000);

  it("cancels from every state that has not shipped; the same status again is a no-op", async () => {
    const { token, productId } = await setup();
    for (const steps of [[], ["submitted"], ["submitted", "approved"], ["submitted", "approved", "in_production"]]) {
      const p = await createProject(token, productId);
      for (const s of steps) await move(token, p.id, s);
      const same = await move(token, p.id, steps.at(-1) ?? "draft");
      expect(same.status).toBe(200);
      const res = await move(token, p.id, "cancelled");
      expect(res.status).toBe(200);
      expect(res.json.status).toBe("cancelled");
    }
  }, 60_000);

  it("lets exactly one of two concurrent final moves win", async () => {
    const { token, productId } = await setup();
    const p = await createProject(token, productId);
    for (const s of ["submitted", "approved", "in_production"]) await move(token, p.id, s);
    const results = await Promise.all([move(token, p.id, "shipped"), move(token, p.id, "cancelled")]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
  });

  it("starts projects as draft only, and names invalid and unknown fields", async () => {
    const { token, productId } = await setup();
    const submitted = await call(projectsRoute, "POST", "/v1/projects", { token, body: { name: "x", product_id: productId, status: "submitted" } });
    expect(submitted.status).toBe(400);
    expect(submitted.json.details.fields).toEqual([{ field: "status", message: expect.stringMatching(/start as draft/) }]);
    const bad = await call(projectsRoute, "POST", "/v1/projects", {
      token,
      body: { name: "", product_id: "", design_file_url: "ftp://example.com/x.pdf", customer_email: "nope", preflight_report_id: "job_1", colour: "red" },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.details.fields.map((f: { field: string }) => f.field).sort()).toEqual([
      "colour",
      "customer_email",
      "design_file_url",
      "name",
      "preflight_report_id",
      "product_id",
    ]);
    const p = await createProject(token, productId);
    const badStatus = await move(token, p.id, "lost");
    expect(badStatus.status).toBe(400);
    expect(badStatus.json.details.fields[0].field).toBe("status");
    const empty = await call(projectRoute, "PATCH", "/v1/projects/x", { token, ...byId(p.id), body: {} });
    expect(empty.status).toBe(400);
  });

  it("needs a product of the same account that is not archived (field named)", async () => {
    const owner = await setup();
    const other = await setup();
    const foreign = await call(projectsRoute, "POST", "/v1/projects", { token: other.token, body: { name: "x", product_id: owner.productId } });
    expect(foreign.status).toBe(404);
    expect(foreign.json).toMatchObject({ error: "NOT_FOUND", details: { field: "product_id" } });
    const unknown = await call(projectsRoute, "POST", "/v1/projects", { token: owner.token, body: { name: "x", product_id: "prd_missing" } });
    expect(unknown.status).toBe(404);
    await call(productRoute, "PATCH", "/v1/products/x", { token: owner.token, ...byId(owner.productId), body: { status: "archived" } });
    const archived = await call(projectsRoute, "POST", "/v1/projects", { token: owner.token, body: { name: "x", product_id: owner.productId } });
    expect(archived.status).toBe(409);
    expect(archived.json).toMatchObject({ error: "PRODUCT_ARCHIVED", details: { field: "product_id" } });
    // Switching an existing project to another account's product is refused the same way.
    const p = await createProject(other.token, other.productId);
    const sw = await call(projectRoute, "PATCH", "/v1/projects/x", { token: other.token, ...byId(p.id), body: { product_id: owner.productId } });
    expect(sw.status).toBe(404);
    expect(sw.json.details.field).toBe("product_id");
  });

  it("links a preflight report of the same account only, and unlinks it when the report is deleted", async () => {
    const owner = await setup();
    const other = await setup();
    const mine = await preflightReport(owner.account.id);
    const theirs = await preflightReport(other.account.id);
    const p = await createProject(owner.token, owner.productId, { preflight_report_id: mine });
    expect((await call(projectRoute, "GET", "/v1/projects/x", { token: owner.token, ...byId(p.id) })).json.preflight_report_id).toBe(mine);

    const foreign = await call(projectRoute, "PATCH", "/v1/projects/x", { token: owner.token, ...byId(p.id), body: { preflight_report_id: theirs } });
    expect(foreign.status).toBe(404);
    expect(foreign.json).toMatchObject({ error: "NOT_FOUND", details: { field: "preflight_report_id" } });
    const createForeign = await call(projectsRoute, "POST", "/v1/projects", { token: owner.token, body: { name: "x", product_id: owner.productId, preflight_report_id: theirs } });
    expect(createForeign.status).toBe(404);
    expect(createForeign.json.details.field).toBe("preflight_report_id");
    const missing = await call(projectRoute, "PATCH", "/v1/projects/x", { token: owner.token, ...byId(p.id), body: { preflight_report_id: "rpt_doesnotexist" } });
    expect(missing.status).toBe(404);

    await (await getDb()).delete(preflightReports).where(eq(preflightReports.id, mine));
    expect((await call(projectRoute, "GET", "/v1/projects/x", { token: owner.token, ...byId(p.id) })).json.preflight_report_id).toBeNull();
    const unlinked = await call(projectRoute, "PATCH", "/v1/projects/x", { token: owner.token, ...byId(p.id), body: { preflight_report_id: null } });
    expect(unlinked.status).toBe(200);
  });

  it("links a report made by a real preflight check, and the preflight DELETE unlinks it", async () => {
    const { token, productId } = await setup();
    const png = await sharp({ create: { width: 600, height: 480, channels: 3, background: "#88aacc" } }).png().toBuffer();
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "design.png");
    const upload = await call(uploadsRoute, "POST", "/v1/uploads", { token, rawBody: form });
    expect(upload.status).toBe(201);
    const check = await call(checksRoute, "POST", "/v1/services/preflight/checks", {
      token,
      body: { designId: "smith-wedding", fileUrl: upload.json.url, canvasWidthInches: 6, canvasHeightInches: 4.8 },
    });
    expect(check.status).toBe(201);
    const reportId = check.json.data.reportId as string;
    const p = await createProject(token, productId, { design_file_url: upload.json.url });
    const linked = await call(projectRoute, "PATCH", "/v1/projects/x", { token, ...byId(p.id), body: { preflight_report_id: reportId } });
    expect(linked.status).toBe(200);
    expect(linked.json.preflight_report_id).toBe(reportId);
    expect((await call(reportRoute, "DELETE", "/v1/services/preflight/checks/x", { token, params: { reportId } })).status).toBe(204);
    expect((await call(projectRoute, "GET", "/v1/projects/x", { token, ...byId(p.id) })).json.preflight_report_id).toBeNull();
  });

  it("answers another account's project with 404 on read, update, move and delete", async () => {
    const owner = await setup();
    const other = await setup();
    const p = await createProject(owner.token, owner.productId);
    expect((await call(projectRoute, "GET", "/v1/projects/x", { token: other.token, ...byId(p.id) })).status).toBe(404);
    expect((await call(projectRoute, "PATCH", "/v1/projects/x", { token: other.token, ...byId(p.id), body: { name: "taken" } })).status).toBe(404);
    expect((await move(other.token, p.id, "submitted")).status).toBe(404);
    expect((await call(projectRoute, "DELETE", "/v1/projects/x", { token: other.token, ...byId(p.id) })).status).toBe(404);
    expect((await call(projectsRoute, "GET", "/v1/projects", { token: other.token })).json.data).toEqual([]);
    const still = await call(projectRoute, "GET", "/v1/projects/x", { token: owner.token, ...byId(p.id) });
    expect(still.json).toMatchObject({ name: "Family portrait", status: "draft" });
  });

  it("lists by status and by product, sorted by each key, with links that walk every project", async () => {
    const { token, productId } = await setup();
    const second = await call(productsRoute, "POST", "/v1/products", { token, body: productBody() });
    const names = ["Bravo", "alpha", "Charlie", "delta", "Echo", "foxtrot", "Golf"];
    const made: { id: string; status: ProjectStatus }[] = [];
    for (const [k, name] of names.entries()) {
      const p = await call(projectsRoute, "POST", "/v1/projects", { token, body: { name, product_id: k % 2 ? second.json.id : productId } });
      made.push(p.json);
      if (k % 3 === 0) await move(token, p.json.id, "submitted");
    }
    const submitted = await call(projectsRoute, "GET", "/v1/projects?status=submitted", { token });
    expect(submitted.json.data.map((p: { id: string }) => p.id).sort()).toEqual([made[0]!.id, made[3]!.id, made[6]!.id].sort());
    const ofSecond = await call(projectsRoute, "GET", `/v1/projects?product_id=${second.json.id}`, { token });
    expect(ofSecond.json.data).toHaveLength(3);
    expect(ofSecond.json.data.every((p: { product_id: string }) => p.product_id === second.json.id)).toBe(true);

    for (const sortBy of ["created_at", "updated_at", "name"]) {
      for (const order of ["asc", "desc"]) {
        const seen: { id: string; name: string; created_at: string; updated_at: string }[] = [];
        let path: string | null = `/v1/projects?limit=2&sortBy=${sortBy}&order=${order}`;
        while (path) {
          const res = await call(projectsRoute, "GET", path, { token });
          expect(res.status).toBe(200);
          seen.push(...res.json.data);
          path = res.json.links.next ? new URL(res.json.links.next).pathname + new URL(res.json.links.next).search : null;
        }
        expect(new Set(seen.map((p) => p.id)).size).toBe(names.length);
        const key = (p: (typeof seen)[number]) => (sortBy === "name" ? p.name : sortBy === "created_at" ? p.created_at : p.updated_at);
        for (let k = 1; k < seen.length; k++) {
          if (sortBy === "name") continue; // collation-dependent (mixed case): checked below against the database order
          expect(order === "asc" ? key(seen[k - 1]!) <= key(seen[k]!) : key(seen[k - 1]!) >= key(seen[k]!)).toBe(true);
        }
        if (sortBy === "name") {
          const one = await call(projectsRoute, "GET", `/v1/projects?limit=100&sortBy=name&order=${order}`, { token });
          expect(seen.map((p) => p.id)).toEqual(one.json.data.map((p: { id: string }) => p.id));
        }
      }
    }
    const bad = await call(projectsRoute, "GET", "/v1/projects?status=done", { token });
    expect(bad.status).toBe(400);
    expect(bad.json.details.fields[0].field).toBe("status");
  });
});
