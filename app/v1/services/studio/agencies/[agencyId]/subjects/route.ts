import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { paginatedBody } from "@/lib/foundation/http/pagination";
import { createSubject, listSubjects } from "@/lib/services/agencies/subjects";
import { agencyParams, createSubjectBody, listSubjectsQuery, subjectListResponse, subjectResponse } from "@/lib/services/agencies/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ params: agencyParams, query: listSubjectsQuery, doc: { summary: "The agency's roster (search, sort, pages)", response: subjectListResponse } }, async ({ db, principal, params, query, req }) => {
    const { items, total } = await listSubjects(db, principal.account.id, params.agencyId, {
      limit: query.limit,
      offset: (query.page - 1) * query.limit,
      sort: query.sort,
      q: query.q || undefined,
    });
    return Response.json(paginatedBody(req, query, items, total, "subjects"));
  }),
  POST: withAccount({ params: agencyParams, body: createSubjectBody, doc: { summary: "Add a subject to the roster", status: 201, response: subjectResponse } }, async ({ db, principal, params, body }) =>
    Response.json(await createSubject(db, principal.account.id, params.agencyId, body), { status: 201 }),
  ),
});
