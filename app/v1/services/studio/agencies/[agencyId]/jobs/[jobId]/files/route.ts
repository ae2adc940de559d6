import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { pageQuery, pageWindow, paginatedBody } from "@/lib/foundation/http/pagination";
import { readJsonBody } from "@/lib/foundation/http/read-json-body";
import { readMultipart } from "@/lib/foundation/http/read-multipart";
import { validationError } from "@/lib/foundation/http/validation-error";
import { config } from "@/lib/foundation/config";
import { addFileFromUrl, addFilesFromForm, listFiles } from "@/lib/services/agencies/job-files";
import { addFileByUrlBody, fileListResponse, fileUploadResponse, jobParams } from "@/lib/services/agencies/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ params: jobParams, query: pageQuery, doc: { summary: "The job's photos", response: fileListResponse } }, async ({ db, principal, params, query, req }) => {
    const { items, total } = await listFiles(db, principal.account.id, params.agencyId, params.jobId, pageWindow(query));
    return Response.json(paginatedBody(req, query, items, total, "files"));
  }),
  // Multipart `file` parts, or JSON { url, filename? }.
  POST: withAccount({ params: jobParams, doc: { summary: "Add photos: multipart `file` parts (up to 20), or JSON { url, filename? }", status: 201, response: fileUploadResponse, rawBody: { contentType: "multipart/form-data", description: "`file` parts; or send application/json { url, filename? }" } } }, async ({ db, principal, params, req }) => {
    const { agencyId, jobId } = params;
    if (/^multipart\/form-data/i.test(req.headers.get("content-type") ?? "")) {
      const form = await readMultipart(req, 4 * config().MAX_IMAGE_BYTES + 64 * 1024);
      return Response.json(await addFilesFromForm(db, principal.account.id, agencyId, jobId, form), { status: 201 });
    }
    const parsed = addFileByUrlBody.safeParse((await readJsonBody(req, config().MAX_JSON_BYTES)) ?? {});
    if (!parsed.success) throw validationError(parsed.error, "body");
    return Response.json(await addFileFromUrl(db, principal.account.id, agencyId, jobId, parsed.data), { status: 201 });
  }),
});
