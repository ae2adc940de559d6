import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { reassignFrame } from "@/lib/services/qr-sort/sort-results";
import { reassignBody, sortFrame, sortFrameParams } from "@/lib/services/qr-sort/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  PATCH: withAccount(
    {
      params: sortFrameParams,
      body: reassignBody,
      doc: { summary: "File a sorted photo under another subject of the agency, or under nobody (null) (free)", response: sortFrame, examples: { request: { subject_id: "sub_abc123" } } },
    },
    async ({ db, principal, params, body }) => Response.json(await reassignFrame(db, principal.account.id, params.taskId, params.fileId, body.subject_id)),
  ),
});
