import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { deleteSubject, getSubject, updateSubject } from "@/lib/services/agencies/subjects";
import { subjectParams, subjectResponse, updateSubjectBody } from "@/lib/services/agencies/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ params: subjectParams, doc: { summary: "A subject of the roster", response: subjectResponse } }, async ({ db, principal, params }) =>
    Response.json(await getSubject(db, principal.account.id, params.agencyId, params.subjectId)),
  ),
  PATCH: withAccount({ params: subjectParams, body: updateSubjectBody, doc: { summary: "Change a subject (exclude_from_matching: true or a new reference photo deletes its face embedding)", response: subjectResponse } }, async ({ db, principal, params, body }) =>
    Response.json(await updateSubject(db, principal.account.id, params.agencyId, params.subjectId, body)),
  ),
  DELETE: withAccount({ params: subjectParams, doc: { summary: "Delete a subject (and its face embedding)", status: 204 } }, async ({ db, principal, params }) => {
    await deleteSubject(db, principal.account.id, params.agencyId, params.subjectId);
    return new Response(null, { status: 204 });
  }),
});
