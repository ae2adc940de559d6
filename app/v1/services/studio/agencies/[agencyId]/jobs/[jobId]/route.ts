import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { deleteJob, getJob, updateJob } from "@/lib/services/agencies/agency-jobs";
import { matchEstimate } from "@/lib/services/matching/billable-photos";
import { matchEstimateResponse } from "@/lib/services/matching/schemas";
import { deleteQuery, deletedJobResponse, jobDetailResponse, jobParams, updateJobBody } from "@/lib/services/agencies/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // `match` is what matching the whole job would bill (its QR cards left out): the Match button's estimate.
  GET: withAccount(
    { params: jobParams, doc: { summary: "A job with its photo count and what matching it would bill", response: jobDetailResponse.extend({ match: matchEstimateResponse }) } },
    async ({ db, principal, params }) => {
      const job = await getJob(db, principal.account.id, params.agencyId, params.jobId);
      return Response.json({ ...job, match: await matchEstimate(db, principal.account.id, params.agencyId, params.jobId) });
    },
  ),
  PATCH: withAccount({ params: jobParams, body: updateJobBody, doc: { summary: "Rename a job or change its status or preset", response: jobDetailResponse } }, async ({ db, principal, params, body }) =>
    Response.json(await updateJob(db, principal.account.id, params.agencyId, params.jobId, body)),
  ),
  DELETE: withAccount(
    { params: jobParams, query: deleteQuery, doc: { summary: "Delete a job: 409 while it holds photos, unless ?cascade=true", response: deletedJobResponse } },
    async ({ db, principal, params, query }) => Response.json(await deleteJob(db, principal.account.id, params.agencyId, params.jobId, { cascade: query.cascade })),
  ),
});
