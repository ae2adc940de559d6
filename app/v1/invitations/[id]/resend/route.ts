import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { noBody } from "@/lib/foundation/http/no-body";
import { resendInvitation } from "@/lib/services/team/invitations";
import { teamActor } from "@/lib/services/team/members";
import { invitationParams, invitationResponse } from "@/lib/services/team/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withAccount({ role: "admin", params: invitationParams, body: noBody, doc: { summary: "Send a pending invitation again (a new link; the old one stops working)", response: invitationResponse } }, async ({ db, principal, params }) =>
    Response.json(await resendInvitation(db, teamActor(principal), params.id)),
  ),
});
