import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { paginatedBody } from "@/lib/foundation/http/pagination";
import { listFaceGroups } from "@/lib/services/matching/face-groups";
import { faceGroupsResponse, groupsQuery, matchJobParams } from "@/lib/services/matching/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount(
    { params: matchJobParams, query: groupsQuery, doc: { summary: "A match job's faces grouped by likeness, the groups that still hold a face to review (most first)", response: faceGroupsResponse } },
    async ({ db, principal, params, query, req }) => {
      const { items, total } = await listFaceGroups(db, principal.account.id, params.matchJobId, query);
      return Response.json(paginatedBody(req, query, items, total, "groups"));
    },
  ),
});
