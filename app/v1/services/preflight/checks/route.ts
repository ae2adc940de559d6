import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { pageQuery, pageWindow, paginatedBody } from "@/lib/http/pagination";
import { createCheck } from "@/lib/services/preflight/create-check";
import { listReports } from "@/lib/services/preflight/reports";
import { createCheckBody } from "@/lib/services/preflight/schemas";

export const dynamic = "force-dynamic";
// Large PDFs take a while to fetch and analyse; the analysis has its own time limit.
export const maxDuration = 300;

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ query: pageQuery }, async ({ db, principal, query, req }) => {
    const { items, total } = await listReports(db, principal.account.id, pageWindow(query));
    return Response.json(paginatedBody(req, query, items, total, "reports"));
  }),
  POST: withAccount({ body: createCheckBody }, async ({ db, principal, body, requestId }) =>
    Response.json({ data: await createCheck(db, principal.account, body, requestId) }, { status: 201 }),
  ),
});
