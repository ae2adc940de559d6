import { withParent } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { pageWindow, paginatedBody, paginatedResponse } from "@/lib/foundation/http/pagination";
import { listGalleryPhotos } from "@/lib/services/galleries/parent-photos";
import { galleryIdParams, parentPhoto, parentPhotosQuery } from "@/lib/services/galleries/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withParent(
    { params: galleryIdParams, query: parentPhotosQuery, doc: { summary: "A gallery's photos as watermarked previews, in capture order (404 for a gallery the token does not open)", response: paginatedResponse(parentPhoto) } },
    async ({ db, principal, params, query, req }) => {
      const { items, total } = await listGalleryPhotos(db, principal, params.galleryId, pageWindow(query));
      return Response.json(paginatedBody(req, query, items, total, "photos"));
    },
  ),
});
