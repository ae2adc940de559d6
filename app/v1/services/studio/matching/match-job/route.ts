import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { acceptMatchJob } from "@/lib/services/matching/accept-match-job";
import { MATCH_PRICE_PER_FILE } from "@/lib/services/matching/limits";
import { matchJobAccepted, matchJobBody } from "@/lib/services/matching/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withAccount(
    {
      body: matchJobBody,
      doc: {
        summary: `Match a job's photos to the agency's roster (${MATCH_PRICE_PER_FILE} tokens a photo; photos that cannot be read are refunded)`,
        billed: true,
        response: matchJobAccepted,
        examples: { request: { agency_id: 1, job_id: 2, threshold: 0.85 } },
      },
    },
    async ({ db, principal, body }) => Response.json(await acceptMatchJob(db, principal.account.id, body)),
  ),
});
