import { and, eq } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { agencies, faceReferences } from "@/lib/foundation/db/schema";
import { forbidden } from "@/lib/foundation/http/api-error";
import { recordAudit } from "@/lib/domain/audit/record-audit";
import { forgetJobFaceEmbeddings } from "./group-job-faces";

type AgencyRow = typeof agencies.$inferSelect;

/** Who confirmed consent, as recorded: the member by name and address, or the API key used. */
export function consentActor(principal: { account: { email: string }; user: { name: string; email: string } | null; apiKeyId: string | null; via: string }) {
  if (principal.user) return `${principal.user.name} <${principal.user.email}> (${principal.via.replace("_", " ")})`;
  return `API key ${principal.apiKeyId ?? ""} of ${principal.account.email}`.replace("  ", " ");
}

/** Matching is refused (403 naming the setting) for an agency whose consent switch is off. */
export function requireMatchingEnabled(agency: AgencyRow) {
  if (!agency.faceMatchingEnabled) {
    throw forbidden(
      "FACE_MATCHING_DISABLED",
      `Face matching is switched off for agency ${agency.id} (face_matching_enabled: false). Turn it on with PATCH /v1/services/studio/agencies/${agency.id} { "face_matching_enabled": true, "consent_confirmed": true } once the agency has consent.`,
    );
  }
}

/**
 * Switching matching on records who confirmed the agency's consent, and when;
 * switching it off clears that record and deletes every embedding of the agency
 * in the same transaction (the caller has checked the agency is the account's).
 */
export async function setFaceMatchingEnabled(db: Db, accountId: string, agencyId: number, enabled: boolean, actor: string) {
  const consent = enabled ? { faceMatchingConsentBy: actor, faceMatchingConsentAt: new Date() } : { faceMatchingConsentBy: null, faceMatchingConsentAt: null };
  return db.transaction(async (tx) => {
    await recordAudit(tx, { accountId, action: "agency.face_matching_changed", target: String(agencyId), data: { enabled, confirmed_by: enabled ? actor : null } });
    await tx.update(agencies).set({ faceMatchingEnabled: enabled, ...consent }).where(and(eq(agencies.id, agencyId), eq(agencies.accountId, accountId)));
    if (!enabled) {
      await tx.delete(faceReferences).where(and(eq(faceReferences.agencyId, agencyId), eq(faceReferences.accountId, accountId)));
      await forgetJobFaceEmbeddings(tx, [agencyId]);
    }
  });
}
