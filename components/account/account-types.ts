/** GET /v1/account. */
export type Account = { id: string; email: string; name: string; plan: "free" | "premium"; email_verified: boolean };

export const accountQueryKey = ["account"] as const;
