import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { requirePerson } from "@/lib/domain/identity/roles";
import { listLoginSessions } from "@/lib/domain/identity/login-sessions";
import { loginSessionsResponse } from "@/lib/services/sign-in/session-schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ allowWithoutTwoFactor: true, role: "viewer", doc: { summary: "Your signed-in sessions (browsers and access tokens), most recently used first", response: loginSessionsResponse } }, async ({ db, principal }) =>
    Response.json(await listLoginSessions(db, requirePerson(principal.user).id, principal.sessionId)),
  ),
});
