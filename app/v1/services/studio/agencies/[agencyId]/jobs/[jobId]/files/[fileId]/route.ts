import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { deleteFile, getFile } from "@/lib/services/agencies/job-files";
import { fileParams, fileResponse } from "@/lib/services/agencies/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ params: fileParams, doc: { summary: "A photo of the job", response: fileResponse } }, async ({ db, principal, params }) =>
    Response.json(await getFile(db, principal.account.id, params.agencyId, params.jobId, params.fileId)),
  ),
  DELETE: withAccount({ params: fileParams, doc: { summary: "Delete a photo (and its stored files)", status: 204 } }, async ({ db, principal, params }) => {
    await deleteFile(db, principal.account.id, params.agencyId, params.jobId, params.fileId);
    return new Response(null, { status: 204 });
  }),
});
