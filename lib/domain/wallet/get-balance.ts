import { eq } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { wallets } from "@/lib/foundation/db/schema";

export async function getBalance(db: Db, accountId: string): Promise<number> {
  const [row] = await db.select({ balance: wallets.balance }).from(wallets).where(eq(wallets.accountId, accountId));
  return row?.balance ?? 0;
}
