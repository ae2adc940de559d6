// Roles by construction. Every /v1 route file on disk (test/robustness/routes.ts reads
// app/v1, the same files the OpenAPI route list is generated from) and every method it
// answers must have a line in EXPECTED below: a new route, or a new method, fails here
// until someone writes down who may call it. The table is written apart from the
// routes' own declarations, so a route that forgets its role (or loosens one, or
// changes wrapper) fails too. Then a viewer, a photographer and an admin of a studio
// call every method of every route that takes a member's credentials, whatever its
// wrapper (withAccount, withCore, withCorePublic), and get 403 FORBIDDEN_ROLE naming
// the role needed exactly where the table says, and never elsewhere. Ids are ones
// that exist nowhere and bodies are empty: an allowed call ends in a 400/404, so
// nothing is changed.
import { beforeAll, describe, expect, it } from "vitest";
import { routeMeta, type AuthKind } from "@/lib/http/route-meta";
import { resetConfig } from "@/lib/foundation/config";
import { resetRateLimiter } from "@/lib/http/rate-limit";
import { getDb } from "@/lib/foundation/db/client";
import { newId } from "@/lib/foundation/ids";
import { ROLES, type Role } from "@/lib/domain/identity/roles";
import { addMember } from "@/lib/services/team/members";
import { call, testAccount } from "../http";
import { METHODS, instantiate, routeFiles, routePath, type Method, type RouteModule } from "./routes";

process.env.RATE_LIMIT_PER_MINUTE = "1000000";
resetConfig();
resetRateLimiter();

/**
 * Who may call each route and method: the least studio role, or `public` (no
 * credentials: sign-up, sign-in, the invitation link, a parent's access code) or `operator`
 * (OPERATOR_TOKEN) or `parent` (a gallery token from a child's access code: no studio role at all,
 * test/api/gallery-access.test.ts sweeps those routes with other children's codes).
 * Routes about the person's own login (password, e-mail, sessions, two-factor) are
 * for any member. Money (checkout, card portal, auto top-up, receipts) is the owner's;
 * credentials that act for the studio (API keys, webhook secrets, the storefront's
 * unauth token rotation) and the team and audit log are admins'.
 */
type Who = Role | "public" | "operator" | "parent";
const EXPECTED: Record<string, Partial<Record<Method, Who>>> = {
  // The JSON 404 for unknown /v1 paths: no wrapped methods.
  "[[...path]]": {},
  "account/email": { POST: "viewer" },
  "account/password": { POST: "viewer" },
  "account/profile": { PATCH: "viewer" },
  "account": { GET: "viewer", PATCH: "admin", DELETE: "owner" },
  "account/sessions/[id]": { DELETE: "viewer" },
  "account/sessions/end-others": { POST: "viewer" },
  "account/sessions": { GET: "viewer" },
  "account/two-factor-requirement": { GET: "admin", PUT: "owner" },
  "account/two-factor/confirm": { POST: "viewer" },
  "account/two-factor/disable": { POST: "viewer" },
  "account/two-factor/recovery-codes": { POST: "viewer" },
  "account/two-factor": { GET: "viewer", POST: "viewer" },
  "account/unauth-token/rotate": { POST: "admin" },
  "account/unauth-token": { GET: "viewer" },
  "api-keys/[id]": { DELETE: "admin" },
  "api-keys": { GET: "admin", POST: "admin" },
  "audit-log": { GET: "admin" },
  "auth/email-verification/confirm": { POST: "public" },
  "auth/email-verification": { POST: "viewer" },
  "auth/password-reset/confirm": { POST: "public" },
  "auth/password-reset": { POST: "public" },
  "auth/register": { POST: "public" },
  "auth/token": { POST: "public" },
  "billing/auto-top-up": { GET: "owner", PUT: "owner" },
  "billing/checkout/[sessionId]": { GET: "owner" },
  "billing/checkout": { POST: "owner" },
  "billing/packs": { GET: "viewer" },
  "billing/portal": { POST: "owner" },
  "invitations/[id]/resend": { POST: "admin" },
  "invitations/[id]": { DELETE: "admin" },
  "invitations/accept": { POST: "public" },
  "invitations": { GET: "admin", POST: "admin" },
  "members/[id]": { PATCH: "admin", DELETE: "viewer" },
  "members": { GET: "viewer" },
  "openapi.json": { GET: "public" },
  "operator/grants": { POST: "operator" },
  "orders/[id]/cancel": { POST: "admin" },
  "orders/[id]/refunds": { POST: "admin" },
  "orders/[id]/downloads": { POST: "admin" },
  "orders/[id]": { GET: "photographer", PATCH: "admin" },
  "orders/sales.csv": { GET: "admin" },
  "orders/sales": { GET: "admin" },
  "orders": { GET: "photographer" },
  "production/batches/[id]/slips": { GET: "photographer" },
  "production/batches/[id]/zip": { GET: "photographer" },
  "production/batches/[id]": { GET: "photographer", PATCH: "admin" },
  "production/batches": { GET: "photographer", POST: "admin" },
  "production/orders/[id]/print-files": { GET: "photographer" },
  "production/settings": { GET: "photographer", PUT: "admin" },
  "production/settings/lab-profile": { PUT: "admin", DELETE: "admin" },
  "production/backgrounds": { GET: "photographer", POST: "admin" },
  "production/backgrounds/[id]": { DELETE: "admin" },
  "production/print-files/[id]": { GET: "photographer", PATCH: "photographer" },
  "production/usage": { GET: "photographer" },
  "parent/access": { POST: "public" },
  "parent/checkout": { POST: "parent" },
  "parent/reminder-email": { PUT: "parent" },
  "parent/price-sheet": { GET: "parent" },
  "parent/favourites/[photoId]": { PUT: "parent", DELETE: "parent" },
  "parent/favourites": { GET: "parent" },
  "parent/yearbook-pose": { GET: "parent", PUT: "parent" },
  "parent/galleries/[galleryId]/photos": { GET: "parent" },
  "parent/galleries": { GET: "parent" },
  "parent/photos/[photoId]": { GET: "parent" },
  "parent/photos/[photoId]/face": { GET: "parent" },
  "parent/photos/[photoId]/backgrounds/[backgroundId]": { GET: "parent" },
  "parent/photos/[photoId]/print-warnings": { GET: "parent" },
  "operator/holds/release": { POST: "operator" },
  "operator/mail": { GET: "operator" },
  "operator/mail/retry": { POST: "operator" },
  "operator/outbox": { GET: "operator" },
  "operator/plan": { PUT: "operator" },
  "payments/connect": { GET: "admin", POST: "admin" },
  "price-sheets/[id]/promo-codes/[codeId]": { DELETE: "admin" },
  "price-sheets/[id]/promo-codes": { GET: "photographer", POST: "admin" },
  "price-sheets/[id]": { GET: "photographer", PATCH: "admin", DELETE: "admin" },
  "price-sheets": { GET: "photographer", POST: "admin" },
  "products/[id]": { GET: "viewer", PATCH: "photographer", DELETE: "photographer" },
  "products": { GET: "viewer", POST: "photographer" },
  "projects/[id]": { GET: "viewer", PATCH: "photographer", DELETE: "photographer" },
  "projects": { GET: "viewer", POST: "photographer" },
  "services/bg-remove/[jobId]": { GET: "viewer" },
  "services/bg-remove": { GET: "viewer", POST: "photographer" },
  "services/preflight/ai-jobs/[jobId]/approve": { POST: "photographer" },
  "services/preflight/ai-jobs/[jobId]/reject": { POST: "photographer" },
  "services/preflight/ai-jobs/[jobId]": { GET: "viewer" },
  "services/preflight/ai-jobs": { GET: "viewer", POST: "photographer" },
  "services/preflight/checks/[reportId]": { GET: "viewer", DELETE: "photographer" },
  "services/preflight/checks": { GET: "viewer", POST: "photographer" },
  "services/preflight/dpi-score": { POST: "photographer" },
  "services/studio/agencies/[agencyId]/jobs/[jobId]/galleries/close": { POST: "admin" },
  "services/studio/agencies/[agencyId]/jobs/[jobId]/galleries/flyer": { GET: "photographer" },
  "services/studio/agencies/[agencyId]/jobs/[jobId]/galleries/reopen": { POST: "admin" },
  "services/studio/agencies/[agencyId]/jobs/[jobId]/galleries/send-codes": { POST: "admin" },
  "services/studio/agencies/[agencyId]/jobs/[jobId]/galleries": { GET: "photographer", POST: "admin" },
  "services/studio/agencies/[agencyId]/jobs/[jobId]/files/[fileId]": { GET: "viewer", DELETE: "photographer" },
  "services/studio/agencies/[agencyId]/jobs/[jobId]/files": { GET: "viewer", POST: "photographer" },
  "services/studio/agencies/[agencyId]/jobs/[jobId]/price-sheet": { GET: "photographer", PUT: "admin" },
  "services/studio/agencies/[agencyId]/jobs/[jobId]/qr-sort": { GET: "viewer", POST: "photographer" },
  "services/studio/agencies/[agencyId]/jobs/[jobId]": { GET: "viewer", PATCH: "photographer", DELETE: "photographer" },
  "services/studio/agencies/[agencyId]/jobs": { GET: "viewer", POST: "photographer" },
  "services/studio/agencies/[agencyId]": { GET: "viewer", PATCH: "photographer", DELETE: "photographer" },
  "services/studio/agencies/[agencyId]/subjects/[subjectId]/portraits/[portraitId]": { DELETE: "photographer" },
  "services/studio/agencies/[agencyId]/subjects/[subjectId]/portraits": { GET: "viewer", POST: "photographer" },
  "services/studio/agencies/[agencyId]/subjects/[subjectId]/references/[referenceId]": { DELETE: "photographer" },
  "services/studio/agencies/[agencyId]/subjects/[subjectId]/references": { GET: "viewer" },
  "services/studio/agencies/[agencyId]/subjects/[subjectId]": { GET: "viewer", PATCH: "photographer", DELETE: "photographer" },
  "services/studio/agencies/[agencyId]/subjects/import": { POST: "photographer" },
  "services/studio/agencies/[agencyId]/subjects": { GET: "viewer", POST: "photographer" },
  "services/studio/agencies": { GET: "viewer", POST: "photographer" },
  "services/studio/face-crop/results/[resultId]": { PUT: "photographer" },
  "services/studio/gallery-settings": { GET: "photographer", PUT: "admin" },
  "services/studio/face-crop": { POST: "photographer" },
  "services/studio/face-crop/upload": { POST: "photographer" },
  "services/studio/jobs/[taskId]": { GET: "viewer" },
  "services/studio/jobs": { GET: "viewer" },
  "services/studio/matching/jobs/[matchJobId]/export.zip": { GET: "viewer" },
  "services/studio/matching/jobs/[matchJobId]/export": { GET: "viewer" },
  "services/studio/matching/jobs/[matchJobId]/faces/[faceId]": { PATCH: "photographer" },
  "services/studio/matching/jobs/[matchJobId]/groups": { GET: "viewer" },
  "services/studio/matching/jobs/[matchJobId]/groups/[group]": { PATCH: "photographer" },
  "services/studio/matching/jobs/[matchJobId]/results": { GET: "viewer" },
  "services/studio/matching/jobs/[matchJobId]": { GET: "viewer" },
  "services/studio/matching/jobs": { GET: "viewer" },
  "services/studio/matching/match-job": { POST: "photographer" },
  "services/studio/matching/references": { POST: "photographer", DELETE: "photographer" },
  "services/studio/qr-sort/[taskId]/export": { GET: "viewer" },
  "services/studio/qr-sort/[taskId]/lab-zip": { GET: "viewer" },
  "services/studio/qr-sort/[taskId]/pspa": { GET: "viewer" },
  "services/studio/qr-sort/[taskId]/results/[fileId]": { PATCH: "photographer" },
  "services/studio/qr-sort/[taskId]/results": { GET: "viewer" },
  "services/studio/qr/generate": { POST: "photographer" },
  "services/studio/qr/generations/[generationId]": { GET: "viewer" },
  "services/studio/qr/generations": { GET: "viewer" },
  "services/studio/qr/preview": { POST: "photographer" },
  "studios": { GET: "viewer" },
  "uploads": { POST: "photographer" },
  "wallet": { GET: "viewer" },
  "wallet/transactions/[transactionId]/receipt": { GET: "owner" },
  "wallet/transactions": { GET: "viewer" },
  "wallet/usage": { GET: "viewer" },
  "webhook-endpoints/[id]/deliveries/[deliveryId]/redeliver": { POST: "admin" },
  "webhook-endpoints/[id]/deliveries": { GET: "admin" },
  "webhook-endpoints/[id]/rotate-secret": { POST: "admin" },
  "webhook-endpoints/[id]": { GET: "admin", PATCH: "admin", DELETE: "admin" },
  "webhook-endpoints/[id]/test": { POST: "admin" },
  "webhook-endpoints": { GET: "admin", POST: "admin" },
};

const MEMBER_KINDS: AuthKind[] = ["account", "core", "core-public"];
const rank = (r: Role) => ROLES.indexOf(r);
const routes = routeFiles()
  .map((file) => ({ file, route: routePath(file) }))
  .sort((a, b) => a.route.localeCompare(b.route));

describe("the role table", () => {
  it("has a line for every route file on disk, and no line for a route that is gone", () => {
    const onDisk = routes.map((r) => r.route);
    expect(onDisk.filter((r) => !(r in EXPECTED)), "route files with no line in EXPECTED").toEqual([]);
    expect(Object.keys(EXPECTED).filter((r) => !onDisk.includes(r)), "lines in EXPECTED for no route file").toEqual([]);
    expect(onDisk.length).toBeGreaterThan(90);
  });

  it("names every method each route answers, with the wrapper and role it declares", async () => {
    const wrong: string[] = [];
    for (const { file, route } of routes) {
      const mod = (await import(file)) as RouteModule;
      for (const method of METHODS) {
        const meta = routeMeta(mod[method]);
        const want = EXPECTED[route]?.[method];
        if (!meta) {
          if (want) wrong.push(`${method} /v1/${route}: in the table as ${want}, but the route does not answer it`);
          continue;
        }
        if (!want) {
          wrong.push(`${method} /v1/${route}: answered (${meta.auth}) but has no line in the table`);
          continue;
        }
        const declared: Who = MEMBER_KINDS.includes(meta.auth) ? (meta.spec.role ?? (method === "GET" ? "viewer" : "photographer")) : (meta.auth as Who);
        if (declared !== want) wrong.push(`${method} /v1/${route}: declares ${declared} (${meta.auth}), the table says ${want}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});

let owner: Awaited<ReturnType<typeof testAccount>>;
const members: Partial<Record<Role, string>> = {};

beforeAll(async () => {
  owner = await testAccount({ tokens: 1000 });
  const db = await getDb();
  for (const role of ["admin", "photographer", "viewer"] as const) {
    const person = await testAccount();
    await addMember(db, { id: newId("mem"), accountId: owner.account.id, userId: person.account.id, role });
    members[role] = person.token;
  }
});

describe.each(["admin", "photographer", "viewer"] as const)("a %s of the studio", (role) => {
  it("gets 403 FORBIDDEN_ROLE exactly where the table says, on every route and method, whatever the wrapper", async () => {
    let checked = 0;
    let refused = 0;
    const kinds = new Set<AuthKind>();
    for (const { file, route } of routes) {
      const mod = (await import(file)) as RouteModule;
      for (const method of METHODS) {
        const meta = routeMeta(mod[method]);
        if (!meta || !MEMBER_KINDS.includes(meta.auth)) continue;
        const need = EXPECTED[route]?.[method] as Role;
        kinds.add(meta.auth);
        const { url, params } = instantiate(file, "no-such-thing");
        const res = await call(mod, method, url, { token: members[role], headers: { "x-studio-id": owner.account.id }, params });
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
    expect([...kinds].sort()).toEqual([...MEMBER_KINDS].sort());
    expect(checked).toBeGreaterThan(110);
    expect(refused).toBeGreaterThan({ admin: 5, photographer: 25, viewer: 60 }[role]);
  }, 180_000);
});
