import { and, eq } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { agencies } from "@/lib/foundation/db/schema";
import { getAgency, requireAgency, type AgencyRow } from "@/lib/services/agencies/agencies";
import { setFaceMatchingEnabled } from "./consent";
import { forgetConfirmedMatches } from "./confirmed-reference";

// Here, not in agencies: two of the agency's settings are face matching's (consent
// deletes embeddings, learning keeps confirmed references), and agencies sit below matching.

/** PATCH: rename, change the type, switch face matching or learning from confirmed matches (`actor` is recorded as having confirmed consent when it goes on). */
export async function updateAgency(db: Db, accountId: string, agencyId: number, input: { name?: string; agency_type?: AgencyRow["agencyType"]; face_matching_enabled?: boolean; learn_from_confirmed_matches?: boolean }, actor: string) {
  await requireAgency(db, accountId, agencyId);
  const set: Partial<typeof agencies.$inferInsert> = {};
  if (input.name !== undefined) set.name = input.name;
  if (input.agency_type !== undefined) set.agencyType = input.agency_type;
  if (input.learn_from_confirmed_matches !== undefined) set.learnFromConfirmedMatches = input.learn_from_confirmed_matches;
  await db.transaction(async (tx) => {
    if (Object.keys(set).length) await tx.update(agencies).set(set).where(and(eq(agencies.id, agencyId), eq(agencies.accountId, accountId)));
    // The consent switch: off deletes the agency's face embeddings in this same transaction.
    if (input.face_matching_enabled !== undefined) await setFaceMatchingEnabled(tx, accountId, agencyId, input.face_matching_enabled, actor);
    if (input.learn_from_confirmed_matches === false) await forgetConfirmedMatches(tx, accountId, agencyId);
  });
  return getAgency(db, accountId, agencyId);
}
