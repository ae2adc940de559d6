import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { subjectParams } from "@/lib/services/agencies/schemas";
import { listSubjectReferences } from "@/lib/services/matching/subject-references";
import { subjectReferencesResponse } from "@/lib/services/matching/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ params: subjectParams, doc: { summary: "What a subject's face references were made from: portraits and confirmed matches (never the embeddings)", response: subjectReferencesResponse } }, async ({ db, principal, params }) =>
    Response.json(await listSubjectReferences(db, principal.account.id, params.agencyId, params.subjectId)),
  ),
});
