import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { revokeInvitation } from "@/lib/services/team/invitations";
import { teamActor } from "@/lib/services/team/members";
import { invitationParams, invitationResponse } from "@/lib/services/team/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  DELETE: withAccount({ role: "admin", params: invitationParams, doc: { summary: "Withdraw an invitation (its link stops working)", response: invitationResponse } }, async ({ db, principal, params }) =>
    Response.json(await revokeInvitation(db, teamActor(principal), params.id)),
  ),
});
