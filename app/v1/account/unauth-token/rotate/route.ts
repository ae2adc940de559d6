import { withCore } from "@/lib/http/with-core";
import { methods } from "@/lib/http/methods";
import { noBody } from "@/lib/foundation/http/no-body";
import { rotateUnauthToken, unauthTokenResponse } from "@/lib/services/sign-in/unauth-token";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // The old token stops working at once (same row, replaced): every storefront using it breaks, so admins only.
  POST: withCore({ body: noBody, role: "admin", doc: { summary: "Replace the unauth token (the old one stops working at once)", response: unauthTokenResponse } }, async ({ db, principal }) => Response.json({ token: await rotateUnauthToken(db, principal.account.id) })),
});
