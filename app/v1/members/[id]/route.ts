import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { changeRole, removeMember, teamActor } from "@/lib/services/team/members";
import { memberParams, memberResponse, updateMemberBody } from "@/lib/services/team/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  PATCH: withAccount({ role: "admin", params: memberParams, body: updateMemberBody, doc: { summary: "Change a member's role (owners only by owners; never the last owner)", response: memberResponse } }, async ({ db, principal, params, body }) =>
    Response.json(await changeRole(db, teamActor(principal), params.id, body.role)),
  ),
  // Any member may leave (their own id); removing someone else needs an admin, an owner an owner.
  DELETE: withAccount({ role: "viewer", params: memberParams, doc: { summary: "Remove a member, or leave the studio (their sessions end at once)", status: 204 } }, async ({ db, principal, params }) => {
    await removeMember(db, teamActor(principal), params.id);
    return new Response(null, { status: 204 });
  }),
});
