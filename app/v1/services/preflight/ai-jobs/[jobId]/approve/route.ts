import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { approveFixJob } from "@/lib/services/fixes/review-fix-job";
import { approveFixJobBody, fixJobEnvelope, fixJobParams } from "@/lib/services/fixes/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withAccount({ params: fixJobParams, body: approveFixJobBody, doc: { summary: "Approve a reviewed AI fix job (all or some of its suggested fixes)", response: fixJobEnvelope } }, async ({ db, principal, params, body }) =>
    Response.json({ data: await approveFixJob(db, principal.account.id, params.jobId, body) }),
  ),
});
