import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { createJob, listJobs } from "@/lib/services/agencies/agency-jobs";
import { agencyParams, createJobBody, jobListResponse, jobResponse } from "@/lib/services/agencies/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ params: agencyParams, doc: { summary: "The agency's jobs (photo shoots), newest first", response: jobListResponse } }, async ({ db, principal, params }) =>
    Response.json({ jobs: await listJobs(db, principal.account.id, params.agencyId) }),
  ),
  POST: withAccount({ params: agencyParams, body: createJobBody, doc: { summary: "Create a job (a photo shoot) under the agency", status: 201, response: jobResponse } }, async ({ db, principal, params, body }) =>
    Response.json(await createJob(db, principal.account.id, params.agencyId, body), { status: 201 }),
  ),
});
