import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { getAgency } from "@/lib/services/studio/agencies";
import { agencyDetailResponse, agencyParams } from "@/lib/services/studio/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ params: agencyParams, doc: { summary: "An agency with its subject and job counts", response: agencyDetailResponse } }, async ({ db, principal, params }) => Response.json(await getAgency(db, principal.account.id, params.agencyId))),
});
