import { webhookConfig } from "./webhook-config";

let threshold: number | undefined;

/** `wallet.low` is sent when a debit takes the balance from at or above WEBHOOK_WALLET_LOW_TOKENS to below it (once per crossing). */
export function crossesLowBalance(before: number, after: number): boolean {
  threshold ??= webhookConfig().WEBHOOK_WALLET_LOW_TOKENS;
  return before >= threshold && after < threshold;
}
