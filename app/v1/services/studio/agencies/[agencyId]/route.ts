import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { getAgency } from "@/lib/services/studio/agencies";
import { setFaceMatchingEnabled } from "@/lib/services/matching/consent";
import { consentBody } from "@/lib/services/matching/schemas";
import { agencyDetailResponse, agencyParams } from "@/lib/services/studio/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ params: agencyParams, doc: { summary: "An agency with its subject and job counts", response: agencyDetailResponse } }, async ({ db, principal, params }) => Response.json(await getAgency(db, principal.account.id, params.agencyId))),
  PATCH: withAccount(
    { params: agencyParams, body: consentBody, doc: { summary: "Change an agency: face_matching_enabled (false deletes its face embeddings at once)", response: agencyDetailResponse } },
    async ({ db, principal, params, body }) => {
      await setFaceMatchingEnabled(db, principal.account.id, params.agencyId, body.face_matching_enabled);
      return Response.json(await getAgency(db, principal.account.id, params.agencyId));
    },
  ),
});
