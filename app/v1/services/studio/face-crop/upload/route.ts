import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { readMultipart } from "@/lib/foundation/http/read-multipart";
import { cropUploads } from "@/lib/services/face-crop/crop-uploads";
import { MAX_UPLOAD_BYTES } from "@/lib/services/face-crop/limits";
import { faceCropDoc } from "@/lib/services/face-crop/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withAccount({ doc: { summary: "Crop faces from uploaded photos to an ID-photo preset (billed per photo)", ...faceCropDoc, rawBody: { contentType: "multipart/form-data", description: "`file[]` parts (the photos), `icp_type`, and optionally `enhance`" } } }, async ({ db, principal, req }) => {
    const { status, body } = await cropUploads(db, principal.account.id, await readMultipart(req, MAX_UPLOAD_BYTES));
    return Response.json(body, { status });
  }),
});
