import { withAccount } from "@/lib/http/wrappers";
import { uploadForm, uploadResponse } from "@/lib/domain/uploads/schemas";
import { methods } from "@/lib/http/methods";
import { readMultipart } from "@/lib/foundation/http/read-multipart";
import { createUpload, uploadBodyLimit } from "@/lib/domain/uploads/create-upload";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withAccount({ doc: { summary: "Upload a file (image or PDF) to use by URL", status: 201, response: uploadResponse, rawBody: { contentType: "multipart/form-data", schema: uploadForm } } }, async ({ db, principal, req }) => {
    const form = await readMultipart(req, uploadBodyLimit());
    return Response.json(await createUpload(db, principal.account.id, form), { status: 201 });
  }),
});
