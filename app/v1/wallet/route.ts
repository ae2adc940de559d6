import { withAccount } from "@/lib/http/wrappers";
import { walletBalanceResponse } from "@/lib/domain/wallet/schemas";
import { methods } from "@/lib/http/methods";
import { getBalance } from "@/lib/domain/wallet/get-balance";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ doc: { summary: "The wallet balance, in tokens", response: walletBalanceResponse } }, async ({ db, principal }) => Response.json({ balance: await getBalance(db, principal.account.id) })),
});
