import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { deleteAgency, getAgency } from "@/lib/services/agencies/agencies";
import { updateAgency } from "@/lib/services/matching/update-agency";
import { consentActor } from "@/lib/services/matching/consent";
import { assertRole } from "@/lib/domain/identity/roles";
import { agencyDetailResponse, agencyParams, deleteQuery, deletedAgencyResponse, updateAgencyBody } from "@/lib/services/agencies/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ params: agencyParams, doc: { summary: "An agency with its subject and job counts", response: agencyDetailResponse } }, async ({ db, principal, params }) => Response.json(await getAgency(db, principal.account.id, params.agencyId))),
  PATCH: withAccount(
    { params: agencyParams, body: updateAgencyBody, doc: { summary: "Rename an agency, change its type, or switch face matching (admins and owners; on needs consent_confirmed: true and records who; off deletes its face embeddings at once)", response: agencyDetailResponse } },
    async ({ db, principal, params, body }) => {
      // The consent switch is an admin's decision; renaming is a photographer's.
      if (body.face_matching_enabled !== undefined) assertRole(principal.role, "admin");
      return Response.json(await updateAgency(db, principal.account.id, params.agencyId, body, consentActor(principal)));
    },
  ),
  DELETE: withAccount(
    { params: agencyParams, query: deleteQuery, doc: { summary: "Delete an agency: 409 while it holds subjects or photos, unless ?cascade=true", response: deletedAgencyResponse } },
    async ({ db, principal, params, query }) => Response.json(await deleteAgency(db, principal.account.id, params.agencyId, { cascade: query.cascade })),
  ),
});
