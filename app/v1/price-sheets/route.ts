import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { pageQuery, pageWindow, paginatedBody } from "@/lib/foundation/http/pagination";
import { createSheet, listSheets } from "@/lib/services/orders/price-sheets";
import { createSheetBody, sheetListResponse, sheetResponse } from "@/lib/services/orders/schemas";

export const dynamic = "force-dynamic";

// Price sheets: a photographer reads them (to see what a job sells), an admin changes prices.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ role: "photographer", query: pageQuery, doc: { summary: "List the studio's price sheets", response: sheetListResponse } }, async ({ db, principal, query, req }) => {
    const { items, total } = await listSheets(db, principal.account.id, pageWindow(query));
    return Response.json(paginatedBody(req, query, items, total, "price sheets"));
  }),
  POST: withAccount({ role: "admin", body: createSheetBody, doc: { summary: "Create a price sheet: items (prints of products, digital files), packages, tax rate, shipping options", status: 201, response: sheetResponse } }, async ({ db, principal, body }) =>
    Response.json(await createSheet(db, principal.account.id, body), { status: 201 }),
  ),
});
