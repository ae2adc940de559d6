import { and, asc, eq } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { memberships } from "@/lib/foundation/db/schema";
import type { Role } from "./roles";
import { newId } from "@/lib/foundation/ids";
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

/**
 * A login that belongs to no studio any more (an invited member whose studio removed
 * them: invited logins have no studio of their own) is given one now, empty and with
 * no sign-up bonus, so signing in still leads somewhere instead of round a redirect.
 */
export async function membershipOrOwnStudio(db: Db, userId: string): Promise<Membership> {
  const found = await membershipFor(db, userId);
  if (found) return found;
  await db.insert(memberships).values({ id: newId("mem"), accountId: userId, userId, role: "owner" }).onConflictDoNothing();
  return (await membershipFor(db, userId))!;
}
