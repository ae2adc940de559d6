import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { reviewFaceGroup } from "@/lib/services/matching/face-groups";
import { groupParams, groupReviewBody, groupReviewResponse } from "@/lib/services/matching/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  PATCH: withAccount(
    {
      params: groupParams,
      body: groupReviewBody,
      doc: { summary: "File every open face of a group with one decision (assign a subject or nobody), or undo it (reset with the face ids)", response: groupReviewResponse, examples: { request: { action: "assign", subject_id: "sub_..." } } },
    },
    async ({ db, principal, params, body }) => Response.json(await reviewFaceGroup(db, principal.account.id, params.matchJobId, params.group, body)),
  ),
});
