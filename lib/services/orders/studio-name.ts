import { eq } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { accounts } from "@/lib/foundation/db/schema";

/** The name the parent's e-mails are signed with: the studio's account name. */
export async function studioName(db: Db, accountId: string): Promise<string> {
  const [studio] = await db.select({ name: accounts.name }).from(accounts).where(eq(accounts.id, accountId));
  return studio?.name ?? "Your photographer";
}
