import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { pageWindow, paginatedBody, paginatedResponse } from "@/lib/http/pagination";
import { faceCropTaskListItem, listFaceCropTasks, listFaceCropTasksQuery } from "@/lib/services/face-crop/list-tasks";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ query: listFaceCropTasksQuery, doc: { summary: "The account's Face Crop tasks, newest first, with thumbnails (free)", response: paginatedResponse(faceCropTaskListItem) } }, async ({ db, principal, query, req }) => {
    const { items, total } = await listFaceCropTasks(db, principal.account.id, { status: query.status }, pageWindow(query));
    return Response.json(paginatedBody(req, query, items, total, "face crop tasks"));
  }),
});
