import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { pageWindow, paginatedBody } from "@/lib/foundation/http/pagination";
import { createBatch, listBatches } from "@/lib/services/production/batches";
import { batchListQuery, batchListResponse, batchResponse, createBatchBody } from "@/lib/services/production/schemas";

export const dynamic = "force-dynamic";

// Lab batches: a photographer follows them, an admin makes them (they move orders on).
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ role: "photographer", query: batchListQuery, doc: { summary: "List lab batches, newest first, with their rendering progress", response: batchListResponse } }, async ({ db, principal, query, req }) => {
    const { items, total } = await listBatches(db, principal.account.id, pageWindow(query));
    return Response.json(paginatedBody(req, query, items, total, "batches"));
  }),
  POST: withAccount(
    {
      role: "admin",
      body: createBatchBody,
      doc: {
        summary: "Make a lab batch of a job's or a day's paid print items (direct or school-bulk shipping) and render them (free)",
        description: "Takes every print item of the matching paid orders that is in no batch and not on hold; renders and preflights them in a job (poll GET .../batches/{id}). 409 NOTHING_TO_BATCH when none is waiting.",
        status: 202,
        response: batchResponse,
      },
    },
    async ({ db, principal, body }) => Response.json(await createBatch(db, principal.account.id, body), { status: 202 }),
  ),
});
