import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { pageQuery, pageWindow, paginatedBody } from "@/lib/foundation/http/pagination";
import { readJsonBody } from "@/lib/foundation/http/read-json-body";
import { readMultipart } from "@/lib/foundation/http/read-multipart";
import { validationError } from "@/lib/foundation/http/validation-error";
import { config } from "@/lib/foundation/config";
import { createColorBackground, createImageBackground, listBackgrounds } from "@/lib/services/production/backgrounds";
import { backgroundListResponse, backgroundResponse, createColorBackgroundBody } from "@/lib/services/production/schemas";

export const dynamic = "force-dynamic";

// The studio's backgrounds: a photographer reads them, an admin changes the set parents choose from.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ role: "photographer", query: pageQuery, doc: { summary: "The studio's backgrounds (pictures and colours a print may be composited onto), newest first", response: backgroundListResponse } }, async ({ db, principal, query, req }) => {
    const { items, total } = await listBackgrounds(db, principal.account.id, pageWindow(query));
    return Response.json(paginatedBody(req, query, items, total, "backgrounds"));
  }),
  POST: withAccount(
    {
      role: "admin",
      doc: {
        summary: "Add a background: multipart `file` (a picture) and `name`, or JSON { name, color: \"#rrggbb\" }",
        status: 201,
        response: backgroundResponse,
        rawBody: { contentType: "multipart/form-data", description: "`file` (JPEG, PNG, WebP or TIFF) and `name`; or send application/json { name, color }" },
      },
    },
    async ({ db, principal, req }) => {
      if (/^multipart\/form-data/i.test(req.headers.get("content-type") ?? "")) {
        return Response.json(await createImageBackground(db, principal.account.id, await readMultipart(req, config().MAX_IMAGE_BYTES + 64 * 1024)), { status: 201 });
      }
      const parsed = createColorBackgroundBody.safeParse((await readJsonBody(req, config().MAX_JSON_BYTES)) ?? {});
      if (!parsed.success) throw validationError(parsed.error, "body");
      return Response.json(await createColorBackground(db, principal.account.id, parsed.data), { status: 201 });
    },
  ),
});
