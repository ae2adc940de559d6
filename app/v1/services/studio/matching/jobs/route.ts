import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { pageWindow, paginatedBody } from "@/lib/foundation/http/pagination";
import { listMatchJobs } from "@/lib/services/matching/match-job-status";
import { listMatchJobsQuery, matchJobListResponse } from "@/lib/services/matching/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ query: listMatchJobsQuery, doc: { summary: "The account's match jobs, newest first", response: matchJobListResponse } }, async ({ db, principal, query, req }) => {
    const { items, total } = await listMatchJobs(db, principal.account.id, pageWindow(query), query.agency_id);
    return Response.json(paginatedBody(req, query, items, total, "match jobs"));
  }),
});
