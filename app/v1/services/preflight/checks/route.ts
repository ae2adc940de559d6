import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { pageQuery, pageWindow, paginatedBody, paginatedResponse } from "@/lib/foundation/http/pagination";
import { createCheck } from "@/lib/services/preflight/create-check";
import { listReports } from "@/lib/services/preflight/reports";
import { createCheckBody } from "@/lib/services/preflight/schemas";
import { reportEnvelope, reportSummaryResponse } from "@/lib/services/preflight/report-response";

export const dynamic = "force-dynamic";
// Large PDFs take a while to fetch and analyse; the analysis has its own time limit.
export const maxDuration = 300;

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ query: pageQuery, doc: { summary: "The account's preflight reports, newest first (without issues)", response: paginatedResponse(reportSummaryResponse) } }, async ({ db, principal, query, req }) => {
    const { items, total } = await listReports(db, principal.account.id, pageWindow(query));
    return Response.json(paginatedBody(req, query, items, total, "reports"));
  }),
  POST: withAccount({ body: createCheckBody, doc: { summary: "Check a print file (JPEG, PNG, TIFF or PDF) and store its report", status: 201, response: reportEnvelope } }, async ({ db, principal, body, requestId }) =>
    Response.json({ data: await createCheck(db, principal.account, body, requestId) }, { status: 201 }),
  ),
});
