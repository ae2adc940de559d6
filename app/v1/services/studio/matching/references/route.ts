import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { appOrigin } from "@/lib/foundation/http/app-origin";
import { buildReferences, deleteReferences } from "@/lib/services/matching/build-references";
import { deleteReferencesResponse, referencesAsyncResponse, referencesBody, referencesQuery, referencesSyncResponse } from "@/lib/services/matching/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withAccount(
    {
      body: referencesBody,
      doc: {
        summary: "Build face matching references from the agency's reference photos (free; from 20 subjects asynchronous: 202 with a task)",
        description: "Below 20 subjects with photos: done, with a report of the portraits that could not be used.",
        response: referencesSyncResponse,
        alsoAnswers: [{ status: 202, response: referencesAsyncResponse, description: "From 20 subjects with photos: a job; poll GET /v1/services/studio/jobs/{task_id} (type face_references)." }],
        examples: { request: { agency_id: 1 } },
      },
    },
    async ({ db, principal, body }) => {
      const { status, body: answer } = await buildReferences(db, principal.account.id, body.agency_id, appOrigin());
      return Response.json(answer, { status });
    },
  ),
  DELETE: withAccount({ query: referencesQuery, doc: { summary: "Delete every face embedding of an agency now", response: deleteReferencesResponse } }, async ({ db, principal, query }) =>
    Response.json(await deleteReferences(db, principal.account.id, query.agency_id)),
  ),
});
