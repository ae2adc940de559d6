import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { pageQuery, pageWindow, paginatedBody, paginatedResponse } from "@/lib/foundation/http/pagination";
import { publishJobGalleries } from "@/lib/services/galleries/publish";
import { jobGalleriesParams, publishBody, publishResponse, studioGallery } from "@/lib/services/galleries/schemas";
import { listJobGalleries } from "@/lib/services/galleries/studio-galleries";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount(
    { params: jobGalleriesParams, query: pageQuery, role: "photographer", doc: { summary: "The job's parent galleries with each child's access code", response: paginatedResponse(studioGallery) } },
    async ({ db, principal, params, query, req }) => {
      const { items, total } = await listJobGalleries(db, principal.account.id, params.agencyId, params.jobId, pageWindow(query));
      return Response.json(paginatedBody(req, query, items, total, "galleries"));
    },
  ),
  POST: withAccount(
    {
      params: jobGalleriesParams,
      body: publishBody,
      role: "admin",
      doc: {
        summary: "Publish the job's parent galleries from its sorting (free)",
        description:
          "One private gallery per child with photos from the job's newest finished QR sort (cards or hand filing) and face matching, each with an access code made once; the group gallery (every code opens it) with group_file_ids when the studio has group galleries on. Publishing again adds new photos and keeps the codes. Watermarked previews are rendered in the background (previews_pending).",
        response: publishResponse,
      },
    },
    async ({ db, principal, params, body }) => Response.json(await publishJobGalleries(db, principal.account.id, params.agencyId, params.jobId, body)),
  ),
});
