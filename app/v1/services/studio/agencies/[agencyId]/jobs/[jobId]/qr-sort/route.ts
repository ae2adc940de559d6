import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { appOrigin } from "@/lib/foundation/http/app-origin";
import { pageQuery, pageWindow, paginatedBody, paginatedResponse } from "@/lib/foundation/http/pagination";
import { startQrSort } from "@/lib/services/qr-sort/accept-sort";
import { listJobSorts } from "@/lib/services/qr-sort/sort-task";
import { sortAccepted, sortParams, sortTaskResponse } from "@/lib/services/qr-sort/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount(
    { params: sortParams, query: pageQuery, doc: { summary: "The job's QR sorts, newest first, each as GET /v1/services/studio/jobs/{taskId} shows it (free)", response: paginatedResponse(sortTaskResponse) } },
    async ({ db, principal, params, query, req }) => {
      const { items, total } = await listJobSorts(db, principal.account.id, params.agencyId, params.jobId, pageWindow(query));
      return Response.json(paginatedBody(req, query, items, total, "QR sorts"));
    },
  ),
  POST: withAccount(
    {
      params: sortParams,
      doc: {
        summary: "Sort the job's photos by the Bulk QR cards photographed before each child (free; 202 with a task)",
        description: "Every photo the job holds is read for a QR card and its EXIF capture time; poll GET /v1/services/studio/jobs/{task_id} (type qr_sort), then read GET /v1/services/studio/qr-sort/{task_id}/results.",
        response: sortAccepted,
        status: 202,
      },
    },
    async ({ db, principal, params }) => Response.json(await startQrSort(db, principal.account.id, params.agencyId, params.jobId, appOrigin()), { status: 202 }),
  ),
});
