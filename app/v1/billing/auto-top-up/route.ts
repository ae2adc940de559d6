import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { getAutoTopUp, setAutoTopUp } from "@/lib/services/billing/auto-top-up";
import { autoTopUpBody, autoTopUpResponse } from "@/lib/services/billing/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ role: "owner", doc: { summary: "Auto top-up: the saved card, threshold, pack, and why it last turned off", response: autoTopUpResponse } }, async ({ db, principal }) =>
    Response.json(await getAutoTopUp(db, principal.account.id)),
  ),
  PUT: withAccount(
    {
      role: "owner",
      body: autoTopUpBody,
      doc: { summary: "Turn auto top-up on or off: under `threshold` tokens, the saved card buys `pack` (one charge at a time)", response: autoTopUpResponse, examples: { request: { enabled: true, threshold: 500, pack: "tokens-1000" } } },
    },
    async ({ db, principal, body }) => Response.json(await setAutoTopUp(db, principal.account.id, body)),
  ),
});
