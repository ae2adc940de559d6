import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { pageWindow, paginatedBody, paginatedResponse } from "@/lib/foundation/http/pagination";
import { ledgerEntryResponse, transactionsQuery } from "@/lib/domain/wallet/schemas";
import { listTransactions } from "@/lib/domain/wallet/list-transactions";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ query: transactionsQuery, doc: { summary: "The wallet ledger, newest first", response: paginatedResponse(ledgerEntryResponse) } }, async ({ db, principal, query, req }) => {
    const { items, total } = await listTransactions(db, principal.account.id, pageWindow(query), query.spent_by);
    return Response.json(paginatedBody(req, query, items, total, "transactions"));
  }),
});
