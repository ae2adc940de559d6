import { withOperator } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { pageWindow, paginatedBody, paginatedResponse } from "@/lib/foundation/http/pagination";
import { listMail } from "@/lib/domain/mail/list-mail";
import { listMailQuery, mailMessageResponse } from "@/lib/domain/mail/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withOperator({ query: listMailQuery, doc: { summary: "Every email queued for sending, newest first, optionally one status: pending, sending, sent, failed (operator)", response: paginatedResponse(mailMessageResponse) } }, async ({ db, query, req }) => {
    const { items, total } = await listMail(db, { status: query.status }, pageWindow(query));
    return Response.json(paginatedBody(req, query, items, total, "messages"));
  }),
});
