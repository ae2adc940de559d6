import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { getFixJob } from "@/lib/services/fixes/get-fix-job";
import { fixJobEnvelope, fixJobParams } from "@/lib/services/fixes/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ params: fixJobParams, doc: { summary: "An AI fix job (poll until completed or failed)", response: fixJobEnvelope } }, async ({ db, principal, params }) => Response.json({ data: await getFixJob(db, principal.account.id, params.jobId) })),
});
