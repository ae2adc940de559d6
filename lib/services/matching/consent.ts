import { and, eq } from "drizzle-orm";
import type { Db } from "@/lib/db/types";
import { agencies, faceReferences } from "@/lib/db/schema";
import { forbidden } from "@/lib/http/api-error";

type AgencyRow = typeof agencies.$inferSelect;

/** Matching is refused (403 naming the setting) for an agency whose consent switch is off. */
export function requireMatchingEnabled(agency: AgencyRow) {
  if (!agency.faceMatchingEnabled) {
    throw forbidden(
      "FACE_MATCHING_DISABLED",
      `Face matching is switched off for agency ${agency.id} (face_matching_enabled: false). Turn it on with PATCH /v1/services/studio/agencies/${agency.id} { "face_matching_enabled": true } once the agency has agreed.`,
    );
  }
}

/** Switching matching off deletes every embedding of the agency in the same transaction (the caller has checked the agency is the account's). */
export async function setFaceMatchingEnabled(db: Db, accountId: string, agencyId: number, enabled: boolean) {
  return db.transaction(async (tx) => {
    await tx.update(agencies).set({ faceMatchingEnabled: enabled }).where(and(eq(agencies.id, agencyId), eq(agencies.accountId, accountId)));
    if (!enabled) await tx.delete(faceReferences).where(and(eq(faceReferences.agencyId, agencyId), eq(faceReferences.accountId, accountId)));
  });
}
