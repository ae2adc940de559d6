import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { getBgRemoveJob } from "@/lib/services/bg-remove/get-bg-remove-job";
import { bgRemoveParams } from "@/lib/services/bg-remove/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ params: bgRemoveParams }, async ({ db, principal, params }) =>
    Response.json(await getBgRemoveJob(db, principal.account.id, params.jobId)),
  ),
});
