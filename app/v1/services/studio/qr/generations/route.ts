import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { pageWindow, paginatedBody, paginatedResponse } from "@/lib/foundation/http/pagination";
import { listQrGenerations, listQrGenerationsQuery, qrGenerationResponse } from "@/lib/services/qr/list-generations";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ query: listQrGenerationsQuery, doc: { summary: "The account's Bulk QR runs, newest first, with their PDFs (free)", response: paginatedResponse(qrGenerationResponse) } }, async ({ db, principal, query, req }) => {
    const { items, total } = await listQrGenerations(db, principal.account.id, { status: query.status }, pageWindow(query));
    return Response.json(paginatedBody(req, query, items, total, "QR generations"));
  }),
});
