import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { getBgRemoveJob } from "@/lib/services/bg-remove/get-bg-remove-job";
import { bgRemoveJobListItem, bgRemoveParams } from "@/lib/services/bg-remove/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ params: bgRemoveParams, doc: { summary: "A background removal job (poll until completed or failed)", response: bgRemoveJobListItem } }, async ({ db, principal, params }) =>
    Response.json(await getBgRemoveJob(db, principal.account.id, params.jobId)),
  ),
});
