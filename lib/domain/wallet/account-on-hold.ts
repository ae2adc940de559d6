import { eq } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { accounts } from "@/lib/foundation/db/schema";
import { ApiError } from "@/lib/foundation/http/api-error";
import { config } from "@/lib/foundation/config";

/** The 402 a held account gets for every billed operation (free ones keep working). */
export function accountOnHold(reason: string): ApiError {
  return new ApiError(
    402,
    "ACCOUNT_ON_HOLD",
    `This account is on hold and cannot spend tokens: ${reason} Contact ${config().SUPPORT_CONTACT} to release it.`,
    undefined,
    { hold_reason: reason },
  );
}

/** Throws ACCOUNT_ON_HOLD when the account is held. Run inside the debit's transaction. */
export async function assertNotOnHold(db: Db, accountId: string): Promise<void> {
  const [row] = await db.select({ holdReason: accounts.holdReason }).from(accounts).where(eq(accounts.id, accountId));
  if (row?.holdReason) throw accountOnHold(row.holdReason);
}
