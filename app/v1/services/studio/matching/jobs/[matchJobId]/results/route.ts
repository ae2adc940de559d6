import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { paginatedBody } from "@/lib/foundation/http/pagination";
import { listMatchResults } from "@/lib/services/matching/match-results";
import { matchJobParams, matchResultsResponse, resultsQuery } from "@/lib/services/matching/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount(
    { params: matchJobParams, query: resultsQuery, doc: { summary: "A match job's photos with their faces, candidates and decisions (filter by decision or subject)", response: matchResultsResponse } },
    async ({ db, principal, params, query, req }) => {
      const { items, total } = await listMatchResults(db, principal.account.id, params.matchJobId, query);
      return Response.json(paginatedBody(req, query, items, total, "photos"));
    },
  ),
});
