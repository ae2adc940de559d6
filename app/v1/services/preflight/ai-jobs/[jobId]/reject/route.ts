import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { noBody } from "@/lib/foundation/http/no-body";
import { rejectFixJob } from "@/lib/services/fixes/review-fix-job";
import { fixJobEnvelope, fixJobParams } from "@/lib/services/fixes/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withAccount({ params: fixJobParams, body: noBody, doc: { summary: "Reject a reviewed AI fix job (refunded)", response: fixJobEnvelope } }, async ({ db, principal, params }) => Response.json({ data: await rejectFixJob(db, principal.account.id, params.jobId) })),
});
