import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { createAgency, listAgencies } from "@/lib/services/agencies/agencies";
import { agencyListResponse, agencyResponse, createAgencyBody } from "@/lib/services/agencies/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ doc: { summary: "The account's agencies (schools, clubs ...), by name", response: agencyListResponse } }, async ({ db, principal }) => Response.json({ agencies: await listAgencies(db, principal.account.id) })),
  POST: withAccount({ body: createAgencyBody, doc: { summary: "Create an agency", status: 201, response: agencyResponse, examples: { request: { name: "Lincoln Elementary", agency_type: "school" } } } }, async ({ db, principal, body }) =>
    Response.json(await createAgency(db, principal.account.id, body), { status: 201 }),
  ),
});
