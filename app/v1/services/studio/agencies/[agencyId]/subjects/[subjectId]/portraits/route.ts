import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { readMultipart } from "@/lib/foundation/http/read-multipart";
import { config } from "@/lib/foundation/config";
import { subjectParams } from "@/lib/services/agencies/schemas";
import { addPortraits, listPortraits } from "@/lib/services/matching/portraits";
import { MAX_REFERENCE_PORTRAITS } from "@/lib/services/agencies/limits";
import { portraitsResponse } from "@/lib/services/matching/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ params: subjectParams, doc: { summary: "A subject's reference portraits (with its reference_photo_url, up to 5 in all)", response: portraitsResponse } }, async ({ db, principal, params }) =>
    Response.json(await listPortraits(db, principal.account.id, params.agencyId, params.subjectId)),
  ),
  POST: withAccount(
    {
      params: subjectParams,
      doc: {
        summary: "Add reference portraits: multipart `file` parts, one face each (up to 5 reference photos per subject; embedded at once while face matching is on)",
        status: 201,
        response: portraitsResponse,
        rawBody: { contentType: "multipart/form-data", description: "`file` parts: JPEG, PNG, WebP or TIFF portraits of this subject alone" },
      },
    },
    async ({ db, principal, params, req }) => {
      const form = await readMultipart(req, MAX_REFERENCE_PORTRAITS * config().MAX_IMAGE_BYTES + 64 * 1024);
      return Response.json(await addPortraits(db, principal.account.id, params.agencyId, params.subjectId, form), { status: 201 });
    },
  ),
});
