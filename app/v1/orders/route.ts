import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { pageWindow, paginatedBody } from "@/lib/foundation/http/pagination";
import { listOrders } from "@/lib/services/orders/studio-orders";
import { orderListQuery, orderListResponse } from "@/lib/services/orders/schemas";

export const dynamic = "force-dynamic";

// Parents' orders: a photographer reads them, an admin changes them and refunds.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ role: "photographer", query: orderListQuery, doc: { summary: "List orders (filters: job_id, status, from, to), newest first", response: orderListResponse } }, async ({ db, principal, query, req }) => {
    const { items, total } = await listOrders(db, principal.account.id, query, pageWindow(query));
    return Response.json(paginatedBody(req, query, items, total, "orders"));
  }),
});
