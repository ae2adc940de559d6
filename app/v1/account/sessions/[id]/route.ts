import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { requirePerson } from "@/lib/domain/identity/roles";
import { endLoginSessions } from "@/lib/domain/identity/login-sessions";
import { sessionParams } from "@/lib/services/sign-in/session-schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  DELETE: withAccount({ allowWithoutTwoFactor: true, role: "viewer", params: sessionParams, doc: { summary: "End one of your sessions: its cookie or token is refused from its next request, on every instance", status: 204 } }, async ({ db, principal, params }) => {
    await endLoginSessions(db, requirePerson(principal.user).id, { id: params.id });
    return new Response(null, { status: 204 });
  }),
});
