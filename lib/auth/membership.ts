import { and, asc, eq } from "drizzle-orm";
import type { Db } from "@/lib/db/types";
import { memberships } from "@/lib/db/schema";
import type { Role } from "./roles";
import { cachedMembership } from "./principal-cache";

export type Membership = { id: string; accountId: string; userId: string; role: Role };

/**
 * The studio a login acts for, and its role there: `studioId` when asked for one
 * (X-Studio-Id, the studio switcher's cookie), else the login's own studio, else
 * the first it joined. Undefined when it is not (or no longer) a member.
 */
export async function membershipFor(db: Db, userId: string, studioId?: string): Promise<Membership | undefined> {
  return cachedMembership(userId, studioId ?? "", async () => {
    if (studioId) {
      const [row] = await db.select().from(memberships).where(and(eq(memberships.userId, userId), eq(memberships.accountId, studioId)));
      return row;
    }
    const rows = await db.select().from(memberships).where(eq(memberships.userId, userId)).orderBy(asc(memberships.createdAt), asc(memberships.id));
    return rows.find((r) => r.accountId === userId) ?? rows[0];
  });
}
