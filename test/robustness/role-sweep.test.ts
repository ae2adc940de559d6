// Roles by construction: a photographer and a viewer of a studio call every method
// of every /v1 route that takes an account's credentials, and get 403 FORBIDDEN_ROLE
// naming the role needed exactly where the table below says, and never elsewhere.
// The table is written here, apart from the routes' own declarations, so a route
// that forgets its role (or loosens one) fails. Ids are ones that exist nowhere and
// bodies are empty: an allowed call ends in a 400/404, so nothing is changed.
import { beforeAll, describe, expect, it } from "vitest";
import { routeMeta } from "@/lib/http/route-meta";
import { resetConfig } from "@/lib/config";
import { resetRateLimiter } from "@/lib/http/rate-limit";
import { getDb } from "@/lib/db/client";
import { newId } from "@/lib/ids";
import { ROLES, type Role } from "@/lib/auth/roles";
import { addMember } from "@/lib/services/team/members";
import { call, testAccount } from "../http";
import { METHODS, instantiate, routeFiles, routePath, type Method, type RouteModule } from "./routes";

process.env.RATE_LIMIT_PER_MINUTE = "1000000";
resetConfig();
resetRateLimiter();

/** The least role each route needs; anything not listed: viewer to read (GET), photographer to change. */
function expectedRole(route: string, method: Method): Role {
  if (["billing/checkout", "billing/checkout/[sessionId]", "billing/portal", "billing/auto-top-up", "wallet/transactions/[transactionId]/receipt"].includes(route)) return "owner";
  if (/^(api-keys|webhook-endpoints|audit-log)(\/|$)/.test(route)) return "admin";
  if (/^invitations(\/|$)/.test(route) && route !== "invitations/accept") return "admin";
  if (route === "members/[id]") return method === "DELETE" ? "viewer" : "admin";
  if (route === "account" && method === "PATCH") return "admin";
  if (route === "account" && method === "DELETE") return "owner";
  if (route === "account/two-factor-requirement") return method === "PUT" ? "owner" : "admin";
  // About the person's own login: any member.
  if (
    ["account/password", "account/email", "account/profile", "auth/email-verification", "account/sessions/[id]", "account/sessions/end-others"].includes(route) ||
    route.startsWith("account/two-factor/") ||
    route === "account/two-factor"
  )
    return "viewer";
  return method === "GET" ? "viewer" : "photographer";
}

const rank = (r: Role) => ROLES.indexOf(r);
let owner: Awaited<ReturnType<typeof testAccount>>;
const members: Partial<Record<"photographer" | "viewer", string>> = {};

beforeAll(async () => {
  owner = await testAccount({ tokens: 1000 });
  const db = await getDb();
  for (const role of ["photographer", "viewer"] as const) {
    const person = await testAccount();
    await addMember(db, { id: newId("mem"), accountId: owner.account.id, userId: person.account.id, role });
    members[role] = person.token;
  }
});

const routes = routeFiles()
  .map((file) => ({ file, route: routePath(file) }))
  .sort((a, b) => a.route.localeCompare(b.route));

describe.each(["photographer", "viewer"] as const)("a %s of the studio", (role) => {
  it("gets 403 FORBIDDEN_ROLE exactly where the table says, on every route and method", async () => {
    let checked = 0;
    let refused = 0;
    for (const { file, route } of routes) {
      const mod = (await import(file)) as RouteModule;
      for (const method of METHODS) {
        const handler = mod[method];
        if (routeMeta(handler)?.auth !== "account") continue;
        const { url, params } = instantiate(file, "no-such-thing");
        const res = await call(mod, method, url, { token: members[role], headers: { "x-studio-id": owner.account.id }, params });
        const need = expectedRole(route, method);
        const what = `${role}: ${method} /v1/${route} answered ${res.status} ${res.text.slice(0, 200)}`;
        if (rank(role) < rank(need)) {
          expect([res.status, res.json?.error, res.json?.details?.required_role], what).toEqual([403, "FORBIDDEN_ROLE", need]);
          refused++;
        } else {
          expect(res.json?.error, what).not.toBe("FORBIDDEN_ROLE");
          expect(res.status, what).not.toBe(500);
        }
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(60);
    expect(refused).toBeGreaterThan(role === "viewer" ? 40 : 10);
  }, 120_000);
});
