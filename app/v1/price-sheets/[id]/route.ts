import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { deleteSheet, getSheet, updateSheet } from "@/lib/services/orders/price-sheets";
import { deletedResponse, sheetParams, sheetResponse, updateSheetBody } from "@/lib/services/orders/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ role: "photographer", params: sheetParams, doc: { summary: "A price sheet", response: sheetResponse } }, async ({ db, principal, params }) =>
    Response.json(await getSheet(db, principal.account.id, params.id)),
  ),
  PATCH: withAccount({ role: "admin", params: sheetParams, body: updateSheetBody, doc: { summary: "Change a price sheet (lists given replace the sheet's)", response: sheetResponse } }, async ({ db, principal, params, body }) =>
    Response.json(await updateSheet(db, principal.account.id, params.id, body)),
  ),
  DELETE: withAccount({ role: "admin", params: sheetParams, doc: { summary: "Delete a price sheet (409 while a job sells from it)", response: deletedResponse } }, async ({ db, principal, params }) =>
    Response.json(await deleteSheet(db, principal.account.id, params.id)),
  ),
});
