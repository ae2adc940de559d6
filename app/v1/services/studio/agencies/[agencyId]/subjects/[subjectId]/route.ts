import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { deleteSubject, getSubject, updateSubject } from "@/lib/services/studio/subjects";
import { subjectParams, updateSubjectBody } from "@/lib/services/studio/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ params: subjectParams }, async ({ db, principal, params }) =>
    Response.json(await getSubject(db, principal.account.id, params.agencyId, params.subjectId)),
  ),
  PATCH: withAccount({ params: subjectParams, body: updateSubjectBody }, async ({ db, principal, params, body }) =>
    Response.json(await updateSubject(db, principal.account.id, params.agencyId, params.subjectId, body)),
  ),
  DELETE: withAccount({ params: subjectParams }, async ({ db, principal, params }) => {
    await deleteSubject(db, principal.account.id, params.agencyId, params.subjectId);
    return new Response(null, { status: 204 });
  }),
});
