import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { reviewFace } from "@/lib/services/matching/review-face";
import { faceParams, reviewBody, reviewResponse } from "@/lib/services/matching/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  PATCH: withAccount(
    {
      params: faceParams,
      body: reviewBody,
      doc: { summary: "Review a face: accept the proposal, assign a subject, mark it nobody, or reset", response: reviewResponse, examples: { request: { action: "assign", subject_id: "sub_..." } } },
    },
    async ({ db, principal, params, body }) => Response.json(await reviewFace(db, principal.account.id, params.matchJobId, params.faceId, body)),
  ),
});
