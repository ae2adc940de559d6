import { withPublic } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { acceptInvitation } from "@/lib/services/team/invitations";
import { acceptInvitationBody, acceptedInvitationResponse } from "@/lib/services/team/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withPublic({ body: acceptInvitationBody, doc: { summary: "Accept an invitation (creates a login, or adds the existing one)", response: acceptedInvitationResponse } }, async ({ db, body }) =>
    Response.json(await acceptInvitation(db, body)),
  ),
});
