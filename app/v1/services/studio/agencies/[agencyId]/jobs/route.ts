import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { createJob, listJobs } from "@/lib/services/studio/agency-jobs";
import { agencyParams, createJobBody } from "@/lib/services/studio/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ params: agencyParams }, async ({ db, principal, params }) =>
    Response.json({ jobs: await listJobs(db, principal.account.id, params.agencyId) }),
  ),
  POST: withAccount({ params: agencyParams, body: createJobBody }, async ({ db, principal, params, body }) =>
    Response.json(await createJob(db, principal.account.id, params.agencyId, body), { status: 201 }),
  ),
});
