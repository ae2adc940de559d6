import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { getBatch } from "@/lib/services/production/batches";
import { moveBatch } from "@/lib/services/production/batch-status";
import { batchParams, batchResponse, batchStatusBody } from "@/lib/services/production/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ role: "photographer", params: batchParams, doc: { summary: "A lab batch: progress, every print file with its picture and holds, download links", response: batchResponse } }, async ({ db, principal, params }) =>
    Response.json(await getBatch(db, principal.account.id, params.id)),
  ),
  PATCH: withAccount(
    { role: "admin", params: batchParams, body: batchStatusBody, doc: { summary: "Move a batch on: sent (orders in production), printed, shipped (orders shipped; tracking per home order)", response: batchResponse } },
    async ({ db, principal, params, body }) => Response.json(await moveBatch(db, principal.account.id, params.id, body)),
  ),
});
