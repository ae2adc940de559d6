import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { paginatedBody } from "@/lib/foundation/http/pagination";
import { listSortResults } from "@/lib/services/qr-sort/sort-results";
import { sortResultsQuery, sortResultsResponse, sortTaskParams } from "@/lib/services/qr-sort/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount(
    { params: sortTaskParams, query: sortResultsQuery, doc: { summary: "A finished QR sort's photos in capture order: role, subject, card payload and review reasons (free)", response: sortResultsResponse } },
    async ({ db, principal, params, query, req }) => {
      const { items, total } = await listSortResults(db, principal.account.id, params.taskId, query);
      return Response.json(paginatedBody(req, query, items, total, "photos"));
    },
  ),
});
