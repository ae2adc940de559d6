import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { getConnect, startConnect } from "@/lib/services/orders/stripe-connect";
import { connectBody, connectResponse } from "@/lib/services/orders/schemas";

export const dynamic = "force-dynamic";

// The studio's own Stripe account, which parents' payments go to: its owner and admins set it up.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ role: "admin", doc: { summary: "Whether the studio's Stripe account is connected and can take payments", response: connectResponse } }, async ({ db, principal }) =>
    Response.json(await getConnect(db, principal.account.id)),
  ),
  POST: withAccount({ role: "admin", body: connectBody, doc: { summary: "Connect the studio's Stripe account (created on first call) and get an onboarding link", response: connectResponse } }, async ({ db, principal, body }) =>
    Response.json(await startConnect(db, principal.account, body)),
  ),
});
