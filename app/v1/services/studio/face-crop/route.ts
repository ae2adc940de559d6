import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { cropFromUrls } from "@/lib/services/face-crop/crop-from-urls";
import { faceCropBody } from "@/lib/services/face-crop/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withAccount({ body: faceCropBody }, async ({ db, principal, body }) => {
    const { status, body: answer } = await cropFromUrls(db, principal.account.id, body);
    return Response.json(answer, { status });
  }),
});
