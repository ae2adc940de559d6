import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { deleteSubjectReference } from "@/lib/services/matching/subject-references";
import { subjectReferenceParams } from "@/lib/services/matching/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  DELETE: withAccount({ params: subjectReferenceParams, doc: { summary: "Remove a reference learned from a confirmed match (a portrait's goes with its portrait)", status: 204 } }, async ({ db, principal, params }) => {
    await deleteSubjectReference(db, principal.account.id, params.agencyId, params.subjectId, params.referenceId);
    return new Response(null, { status: 204 });
  }),
});
