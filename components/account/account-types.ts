/** GET /v1/account. */
export type Account = { id: string; email: string; name: string; plan: "free" | "premium" };

export const accountQueryKey = ["account"] as const;
