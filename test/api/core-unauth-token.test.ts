import { beforeAll, describe, expect, it } from "vitest";
import * as productsRoute from "@/app/v1/products/route";
import * as productRoute from "@/app/v1/products/[id]/route";
import * as projectsRoute from "@/app/v1/projects/route";
import * as projectRoute from "@/app/v1/projects/[id]/route";
import * as unauthTokenRoute from "@/app/v1/account/unauth-token/route";
import * as rotateRoute from "@/app/v1/account/unauth-token/rotate/route";
import * as auditRoute from "@/app/v1/audit-log/route";
import { getDb } from "@/lib/foundation/db/client";
import { newId } from "@/lib/foundation/ids";
import { addMember } from "@/lib/services/team/members";
import { call, testAccount } from "../http";
import { basicHeader, productBody } from "./core-fixtures";

const unauth = (token: string) => ({ headers: { "x-service-unauth-token": token } });
const byId = (id: string) => ({ params: { id } });

let owner: Awaited<ReturnType<typeof testAccount>>;
let publicToken: string;
let publicIds: string[];
let privateId: string;
let otherPublicId: string;
let projectId: string;

beforeAll(async () => {
  owner = await testAccount();
  const other = await testAccount();
  const make = async (token: string, body: Record<string, unknown>) => (await call(productsRoute, "POST", "/v1/products", { token, body: productBody(body) })).json.id as string;
  publicIds = [await make(owner.token, { name: "Public poster", is_public: true }), await make(owner.token, { name: "Public canvas", is_public: true, status: "archived" })];
  privateId = await make(owner.token, { name: "Private proof" });
  otherPublicId = await make(other.token, { name: "Someone else's", is_public: true });
  projectId = (await call(projectsRoute, "POST", "/v1/projects", { token: owner.token, body: { name: "p", product_id: privateId } })).json.id;
  publicToken = (await call(unauthTokenRoute, "GET", "/v1/account/unauth-token", { token: owner.token })).json.token;
});

describe("X-Service-Unauth-Token", () => {
  it("is one stable token per account, shown as { token }", async () => {
    expect(publicToken).toMatch(/^psu_[A-Za-z0-9_-]{32}$/);
    const again = await call(unauthTokenRoute, "GET", "/v1/account/unauth-token", { token: owner.token });
    expect(again.json).toEqual({ token: publicToken });
    const viaBasic = await call(unauthTokenRoute, "GET", "/v1/account/unauth-token", { headers: { authorization: basicHeader(owner.email, owner.password) } });
    expect(viaBasic.json).toEqual({ token: publicToken });
    const other = await testAccount();
    expect((await call(unauthTokenRoute, "GET", "/v1/account/unauth-token", { token: other.token })).json.token).not.toBe(publicToken);
  });

  it("lists the account's public products only, with filters and walkable links", async () => {
    const list = await call(productsRoute, "GET", "/v1/products", unauth(publicToken));
    expect(list.status).toBe(200);
    expect(list.json.data.map((p: { id: string }) => p.id).sort()).toEqual([...publicIds].sort());
    expect(list.json.data.every((p: { is_public: boolean }) => p.is_public)).toBe(true);
    const active = await call(productsRoute, "GET", "/v1/products?status=active", unauth(publicToken));
    expect(active.json.data.map((p: { id: string }) => p.id)).toEqual([publicIds[0]]);
    const page1 = await call(productsRoute, "GET", "/v1/products?limit=1&sortBy=name", unauth(publicToken));
    expect(page1.json.data[0].name).toBe("Public canvas");
    const next = new URL(page1.json.links.next);
    const page2 = await call(productsRoute, "GET", next.pathname + next.search, unauth(publicToken));
    expect(page2.json.data.map((p: { name: string }) => p.name)).toEqual(["Public poster"]);
    expect(page2.json.links.next).toBeNull();
  });

  it("shows a public product's detail; a private or another account's product is a 404", async () => {
    const ok = await call(productRoute, "GET", "/v1/products/x", { ...unauth(publicToken), ...byId(publicIds[0]!) });
    expect(ok.status).toBe(200);
    expect(ok.json.name).toBe("Public poster");
    for (const id of [privateId, otherPublicId, "prd_unknown"]) {
      const res = await call(productRoute, "GET", "/v1/products/x", { ...unauth(publicToken), ...byId(id) });
      expect(res.status).toBe(404);
      expect(res.json.error).toBe("NOT_FOUND");
    }
    // The owner still sees the private one.
    expect((await call(productRoute, "GET", "/v1/products/x", { token: owner.token, ...byId(privateId) })).status).toBe(200);
  });

  it("refuses everything else with 403 UNAUTH_TOKEN_SCOPE, valid token or not, and changes nothing", async () => {
    const attempts = [
      () => call(productsRoute, "POST", "/v1/products", { ...unauth(publicToken), body: productBody() }),
      () => call(productRoute, "PATCH", "/v1/products/x", { ...unauth(publicToken), ...byId(publicIds[0]!), body: { price: 1 } }),
      () => call(productRoute, "DELETE", "/v1/products/x", { ...unauth(publicToken), ...byId(publicIds[0]!) }),
      () => call(projectsRoute, "GET", "/v1/projects", unauth(publicToken)),
      () => call(projectsRoute, "POST", "/v1/projects", { ...unauth(publicToken), body: { name: "x", product_id: publicIds[0] } }),
      () => call(projectRoute, "GET", "/v1/projects/x", { ...unauth(publicToken), ...byId(projectId) }),
      () => call(projectRoute, "PATCH", "/v1/projects/x", { ...unauth(publicToken), ...byId(projectId), body: { status: "submitted" } }),
      () => call(unauthTokenRoute, "GET", "/v1/account/unauth-token", unauth(publicToken)),
      () => call(rotateRoute, "POST", "/v1/account/unauth-token/rotate", unauth(publicToken)),
      () => call(productsRoute, "POST", "/v1/products", { ...unauth("psu_forged"), body: productBody() }),
      // Even an invalid body: the scope is decided before the body is read.
      () => call(productsRoute, "POST", "/v1/products", { ...unauth(publicToken), body: { nonsense: true } }),
    ];
    for (const [i, attempt] of attempts.entries()) {
      const res = await attempt();
      expect(res.status, `attempt ${i}`).toBe(403);
      expect(res.json.error, `attempt ${i}`).toBe("UNAUTH_TOKEN_SCOPE");
    }
    const product = await call(productRoute, "GET", "/v1/products/x", { token: owner.token, ...byId(publicIds[0]!) });
    expect(product.json.price).toBe(4999);
    const list = await call(productsRoute, "GET", "/v1/products?limit=100", { token: owner.token });
    expect(list.json.data).toHaveLength(3);
  });

  it("answers an unknown token on a public read with 401 and no Basic challenge (browsers would prompt)", async () => {
    const res = await call(productsRoute, "GET", "/v1/products", unauth("psu_not_a_real_token"));
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe('Bearer realm="v1"');
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("lets an Authorization header decide when both are sent", async () => {
    const res = await call(productRoute, "GET", "/v1/products/x", { token: owner.token, ...unauth(publicToken), ...byId(privateId) });
    expect(res.status).toBe(200);
  });

  it("is readable from any web origin (CORS) on the public reads", async () => {
    const list = await call(productsRoute, "GET", "/v1/products", { headers: { "x-service-unauth-token": publicToken, origin: "https://shop.example" } });
    expect(list.headers.get("access-control-allow-origin")).toBe("*");
    expect(list.headers.get("access-control-expose-headers")).toContain("X-Request-Id");
    const preflight = await productsRoute.OPTIONS(new Request("http://localhost:3000/v1/products", { method: "OPTIONS" }), { params: Promise.resolve({}) });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-headers")).toContain("X-Service-Unauth-Token");
    expect(preflight.headers.get("access-control-allow-methods")).toBe("GET");
  });

  it("rotates: the new token works at once and the old one is refused at once", async () => {
    const acc = await testAccount();
    await call(productsRoute, "POST", "/v1/products", { token: acc.token, body: productBody({ is_public: true }) });
    const old = (await call(unauthTokenRoute, "GET", "/v1/account/unauth-token", { token: acc.token })).json.token;
    expect((await call(productsRoute, "GET", "/v1/products", unauth(old))).status).toBe(200);
    const rotated = await call(rotateRoute, "POST", "/v1/account/unauth-token/rotate", { token: acc.token });
    expect(rotated.status).toBe(200);
    expect(Object.keys(rotated.json)).toEqual(["token"]);
    expect(rotated.json.token).not.toBe(old);
    expect((await call(productsRoute, "GET", "/v1/products", unauth(old))).status).toBe(401);
    const fresh = await call(productsRoute, "GET", "/v1/products", unauth(rotated.json.token));
    expect(fresh.status).toBe(200);
    expect(fresh.json.data).toHaveLength(1);
    expect((await call(unauthTokenRoute, "GET", "/v1/account/unauth-token", { token: acc.token })).json.token).toBe(rotated.json.token);
    // Rotating with Basic works too; without credentials it does not.
    const viaBasic = await call(rotateRoute, "POST", "/v1/account/unauth-token/rotate", { headers: { authorization: basicHeader(acc.email, acc.password) } });
    expect(viaBasic.json.token).not.toBe(rotated.json.token);
    expect((await call(rotateRoute, "POST", "/v1/account/unauth-token/rotate")).status).toBe(401);
    expect((await call(rotateRoute, "GET", "/v1/account/unauth-token/rotate", { token: acc.token })).status).toBe(405);
  });

  it("is rotated by the studio's admins and owner only, and every rotation is in the audit log with who did it", async () => {
    const studio = await testAccount();
    const db = await getDb();
    const people: Record<string, Awaited<ReturnType<typeof testAccount>>> = {};
    for (const role of ["admin", "photographer", "viewer"] as const) {
      people[role] = await testAccount();
      await addMember(db, { id: newId("mem"), accountId: studio.account.id, userId: people[role]!.account.id, role });
    }
    const as = { "x-studio-id": studio.account.id };
    const before = (await call(unauthTokenRoute, "GET", "/v1/account/unauth-token", { token: studio.token })).json.token;
    for (const role of ["photographer", "viewer"]) {
      const p = people[role]!;
      const refused = await call(rotateRoute, "POST", "/v1/account/unauth-token/rotate", { token: p.token, headers: as });
      expect([refused.status, refused.json.error, refused.json.details.required_role]).toEqual([403, "FORBIDDEN_ROLE", "admin"]);
      // HTTP Basic with the member's own e-mail and password acts with the same role.
      const viaBasic = await call(rotateRoute, "POST", "/v1/account/unauth-token/rotate", { headers: { ...as, authorization: basicHeader(p.email, p.password) } });
      expect([viaBasic.status, viaBasic.json.error]).toEqual([403, "FORBIDDEN_ROLE"]);
      // A viewer still reads the (public) token; neither may create products.
      expect((await call(unauthTokenRoute, "GET", "/v1/account/unauth-token", { token: p.token, headers: as })).json.token).toBe(before);
    }
    const refusedWrite = await call(productsRoute, "POST", "/v1/products", { token: people.viewer!.token, headers: as, body: productBody({}) });
    expect([refusedWrite.status, refusedWrite.json.details?.required_role]).toEqual([403, "photographer"]);
    expect((await call(unauthTokenRoute, "GET", "/v1/account/unauth-token", { token: studio.token })).json.token).toBe(before);

    const byAdmin = await call(rotateRoute, "POST", "/v1/account/unauth-token/rotate", { token: people.admin!.token, headers: as });
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.json.token).not.toBe(before);
    const byOwner = await call(rotateRoute, "POST", "/v1/account/unauth-token/rotate", { token: studio.token });
    expect(byOwner.status).toBe(200);
    const log = await call(auditRoute, "GET", "/v1/audit-log?action=unauth_token.rotated", { token: studio.token });
    expect(log.status).toBe(200);
    expect(log.json.data.map((e: { actor: { type: string; name: string } }) => [e.actor.type, e.actor.name])).toEqual([
      ["member", studio.account.name],
      ["member", people.admin!.account.name],
    ]);
  });
});
