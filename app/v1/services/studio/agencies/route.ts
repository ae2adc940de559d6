import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { createAgency, listAgencies } from "@/lib/services/studio/agencies";
import { createAgencyBody } from "@/lib/services/studio/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({}, async ({ db, principal }) => Response.json({ agencies: await listAgencies(db, principal.account.id) })),
  POST: withAccount({ body: createAgencyBody }, async ({ db, principal, body }) =>
    Response.json(await createAgency(db, principal.account.id, body), { status: 201 }),
  ),
});
