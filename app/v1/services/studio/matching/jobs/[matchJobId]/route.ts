import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { getMatchJob } from "@/lib/services/matching/match-job-status";
import { matchJobParams, matchJobResponse } from "@/lib/services/matching/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ params: matchJobParams, doc: { summary: "A match job: status and photos per decision (poll while it runs)", response: matchJobResponse } }, async ({ db, principal, params }) =>
    Response.json(await getMatchJob(db, principal.account.id, params.matchJobId)),
  ),
});
