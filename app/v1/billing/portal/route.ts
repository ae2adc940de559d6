import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { noBody } from "@/lib/foundation/http/no-body";
import { openPortal } from "@/lib/services/billing/premium";
import { portalResponse } from "@/lib/services/billing/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withAccount({ role: "owner", body: noBody, doc: { summary: "Open Stripe's customer portal: cards, invoices and cancelling Premium", response: portalResponse } }, async ({ db, principal }) =>
    Response.json(await openPortal(db, principal.account)),
  ),
});
