import { withParent } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { pageWindow, paginatedBody, paginatedResponse } from "@/lib/foundation/http/pagination";
import { listFavourites } from "@/lib/services/galleries/parent-photos";
import { parentPhoto, parentPhotosQuery } from "@/lib/services/galleries/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withParent({ query: parentPhotosQuery, doc: { summary: "The child's favourite photos (shared by everyone holding the child's code)", response: paginatedResponse(parentPhoto) } }, async ({ db, principal, query, req }) => {
    const { items, total } = await listFavourites(db, principal, pageWindow(query));
    return Response.json(paginatedBody(req, query, items, total, "favourites"));
  }),
});
