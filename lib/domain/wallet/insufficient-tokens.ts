import { ApiError } from "@/lib/foundation/http/api-error";
import { countNoun } from "@/lib/foundation/count-noun";
import { appOrigin } from "@/lib/foundation/http/app-origin";

/** The contract's 402 body: error, balance, shortfall, top_up_url (absolute: APP_URL, else the origin the client called). */
export function insufficientTokens(balance: number, cost: number): ApiError {
  const shortfall = cost - balance;
  return new ApiError(
    402,
    "INSUFFICIENT_TOKENS",
    `This operation costs ${countNoun(cost, "tokens")} and the wallet holds ${balance}: ${shortfall} more needed.`,
    undefined,
    { balance, shortfall, top_up_url: `${appOrigin()}/wallet/top-up` },
  );
}
