import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { assignJobSheet, getJobSheet } from "@/lib/services/orders/price-sheets";
import { assignSheetBody, jobSheetParams, jobSheetResponse } from "@/lib/services/orders/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ role: "photographer", params: jobSheetParams, doc: { summary: "The price sheet a job's galleries sell from", response: jobSheetResponse } }, async ({ db, principal, params }) =>
    Response.json(await getJobSheet(db, principal.account.id, params.agencyId, params.jobId)),
  ),
  PUT: withAccount({ role: "admin", params: jobSheetParams, body: assignSheetBody, doc: { summary: "Assign the price sheet a job sells from (null: none)", response: jobSheetResponse } }, async ({ db, principal, params, body }) =>
    Response.json(await assignJobSheet(db, principal.account.id, params.agencyId, params.jobId, body.price_sheet_id)),
  ),
});
