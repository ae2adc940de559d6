import { withPublic } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { accessTokenResponse, tokenBody } from "@/lib/services/sign-in/schemas";
import { issueTokenForCredentials } from "@/lib/services/sign-in/issue-token";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withPublic({ body: tokenBody, doc: { summary: "Exchange email and password (and the two-factor code, when on) for an access token", response: accessTokenResponse } }, async ({ db, body }) =>
    Response.json(await issueTokenForCredentials(db, body)),
  ),
});
