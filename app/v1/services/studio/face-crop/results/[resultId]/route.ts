import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { recropResult } from "@/lib/services/face-crop/recrop-result";
import { faceCropResultResponse, recropBody, resultParams } from "@/lib/services/face-crop/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  PUT: withAccount({ params: resultParams, body: recropBody, doc: { summary: "Move a crop by hand and render it again (free)", response: faceCropResultResponse } }, async ({ db, principal, params, body }) =>
    Response.json(await recropResult(db, principal.account.id, params.resultId, body.crop_box)),
  ),
});
