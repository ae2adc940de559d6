import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { pageWindow, paginatedBody, paginatedResponse } from "@/lib/foundation/http/pagination";
import { createFixJob } from "@/lib/services/fixes/create-fix-job";
import { fixJobListItem, listFixJobs, listFixJobsQuery } from "@/lib/services/fixes/list-fix-jobs";
import { acceptedFixJobResponse, createFixJobBody } from "@/lib/services/fixes/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ query: listFixJobsQuery, doc: { summary: "The account's AI fix jobs, newest first (free)", response: paginatedResponse(fixJobListItem) } }, async ({ db, principal, query, req }) => {
    const { items, total } = await listFixJobs(db, principal.account.id, { status: query.status, preflightReportId: query.preflightReportId }, pageWindow(query));
    return Response.json(paginatedBody(req, query, items, total, "AI fix jobs"));
  }),
  POST: withAccount({ body: createFixJobBody, doc: { summary: "Start an AI fix job on a checked file (billed)", status: 202, billed: true, response: acceptedFixJobResponse } }, async ({ db, principal, body }) => Response.json({ data: await createFixJob(db, principal.account.id, body) }, { status: 202 })),
});
