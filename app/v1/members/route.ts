import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { pageQuery, pageWindow, paginatedBody, paginatedResponse } from "@/lib/foundation/http/pagination";
import { listMembers, teamActor } from "@/lib/services/team/members";
import { memberResponse } from "@/lib/services/team/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ query: pageQuery, doc: { summary: "The studio's members and their roles", response: paginatedResponse(memberResponse) } }, async ({ db, principal, query, req }) => {
    const { items, total } = await listMembers(db, teamActor(principal), pageWindow(query));
    return Response.json(paginatedBody(req, query, items, total, "members"));
  }),
});
