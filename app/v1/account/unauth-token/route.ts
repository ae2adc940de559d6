import { withCore } from "@/lib/http/with-core";
import { methods } from "@/lib/http/methods";
import { getUnauthToken, unauthTokenResponse } from "@/lib/services/sign-in/unauth-token";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withCore({ doc: { summary: "The account's unauth token (public product reads)", response: unauthTokenResponse } }, async ({ db, principal }) => Response.json({ token: await getUnauthToken(db, principal.account.id) })),
});
