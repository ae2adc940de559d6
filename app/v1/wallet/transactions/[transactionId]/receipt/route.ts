import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { receiptFor } from "@/lib/services/billing/receipt";
import { receiptParams, receiptResponse } from "@/lib/services/billing/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ role: "owner", params: receiptParams, doc: { summary: "Stripe's receipt (token pack) or hosted invoice (Premium) for a ledger row paid by card", response: receiptResponse } }, async ({ db, principal, params }) =>
    Response.json(await receiptFor(db, principal.account.id, params.transactionId)),
  ),
});
