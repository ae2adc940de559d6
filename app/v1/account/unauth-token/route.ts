import { withCore } from "@/lib/http/with-core";
import { methods } from "@/lib/http/methods";
import { getUnauthToken } from "@/lib/services/core/unauth-token";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withCore({}, async ({ db, principal }) => Response.json({ token: await getUnauthToken(db, principal.account.id) })),
});
