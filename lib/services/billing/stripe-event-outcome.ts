/** What handling one Stripe event did; the webhook route logs it and answers 200 either way. */
export type StripeEventOutcome = "credited" | "already_credited" | "recorded" | "ignored";
