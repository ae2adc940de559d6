import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { deletePortrait } from "@/lib/services/matching/portraits";
import { portraitParams } from "@/lib/services/matching/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  DELETE: withAccount({ params: portraitParams, doc: { summary: "Delete a reference portrait (its stored files and its face embedding)", status: 204 } }, async ({ db, principal, params }) => {
    await deletePortrait(db, principal.account.id, params.agencyId, params.subjectId, params.portraitId);
    return new Response(null, { status: 204 });
  }),
});
