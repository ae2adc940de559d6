import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { cropFromUrls } from "@/lib/services/face-crop/crop-from-urls";
import { faceCropBody, faceCropDoc } from "@/lib/services/face-crop/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withAccount({ body: faceCropBody, doc: { summary: "Crop faces from photo URLs to an ID-photo preset (billed per photo)", ...faceCropDoc } }, async ({ db, principal, body }) => {
    const { status, body: answer } = await cropFromUrls(db, principal.account.id, body);
    return Response.json(answer, { status });
  }),
});
