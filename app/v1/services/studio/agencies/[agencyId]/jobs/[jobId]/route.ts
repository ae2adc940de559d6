import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { getJob } from "@/lib/services/studio/agency-jobs";
import { jobParams } from "@/lib/services/studio/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ params: jobParams }, async ({ db, principal, params }) =>
    Response.json(await getJob(db, principal.account.id, params.agencyId, params.jobId)),
  ),
});
