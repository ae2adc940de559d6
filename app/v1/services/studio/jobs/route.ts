import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { pageWindow, paginatedBody, paginatedResponse } from "@/lib/foundation/http/pagination";
import { listStudioTasks, listStudioTasksQuery, studioTaskListItem } from "@/lib/services/qr-sort/list-studio-tasks";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount(
    {
      query: listStudioTasksQuery,
      doc: {
        summary: "The account's studio tasks, newest first: Face Crop batches (type face_crop, with thumbnails) and QR sorts (type qr_sort); ?type= keeps one kind (free)",
        response: paginatedResponse(studioTaskListItem),
      },
    },
    async ({ db, principal, query, req }) => {
      const { items, total } = await listStudioTasks(db, principal.account.id, query, pageWindow(query));
      return Response.json(paginatedBody(req, query, items, total, "studio tasks"));
    },
  ),
});
