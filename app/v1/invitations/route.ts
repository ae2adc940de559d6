import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { pageQuery, pageWindow, paginatedBody, paginatedResponse } from "@/lib/foundation/http/pagination";
import { createInvitation, listInvitations } from "@/lib/services/team/invitations";
import { teamActor } from "@/lib/services/team/members";
import { createInvitationBody, invitationResponse } from "@/lib/services/team/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ role: "admin", query: pageQuery, doc: { summary: "Invitations sent, newest first", response: paginatedResponse(invitationResponse) } }, async ({ db, principal, query, req }) => {
    const { items, total } = await listInvitations(db, principal.account.id, pageWindow(query));
    return Response.json(paginatedBody(req, query, items, total, "invitations"));
  }),
  POST: withAccount(
    { role: "admin", body: createInvitationBody, doc: { summary: "Invite someone by email (a link valid 7 days)", status: 201, response: invitationResponse, examples: { request: { email: "sam@example.com", role: "photographer" } } } },
    async ({ db, principal, body }) => Response.json(await createInvitation(db, teamActor(principal), body), { status: 201 }),
  ),
});
