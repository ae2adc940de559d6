import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { noBody } from "@/lib/foundation/http/no-body";
import { requirePerson } from "@/lib/domain/identity/roles";
import { endLoginSessions } from "@/lib/domain/identity/login-sessions";
import { endedSessionsResponse } from "@/lib/services/sign-in/session-schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withAccount({ allowWithoutTwoFactor: true, role: "viewer", body: noBody, doc: { summary: "End every other session of yours (this one stays signed in)", response: endedSessionsResponse } }, async ({ db, principal }) =>
    Response.json({ ended: await endLoginSessions(db, requirePerson(principal.user).id, { allBut: principal.sessionId }) }),
  ),
});
