import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { pageQuery, pageWindow, paginatedBody } from "@/lib/http/pagination";
import { listTransactions } from "@/lib/wallet/list-transactions";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ query: pageQuery }, async ({ db, principal, query, req }) => {
    const { items, total } = await listTransactions(db, principal.account.id, pageWindow(query));
    return Response.json(paginatedBody(req, query, items, total, "transactions"));
  }),
});
