import { withOperator } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { pageWindow, paginatedBody, paginatedResponse } from "@/lib/http/pagination";
import { listMail } from "@/lib/mail/list-mail";
import { listMailQuery, mailMessageResponse } from "@/lib/mail/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withOperator({ query: listMailQuery, doc: { summary: "Every email queued for sending, newest first, optionally one status: pending, sending, sent, failed (operator)", response: paginatedResponse(mailMessageResponse) } }, async ({ db, query, req }) => {
    const { items, total } = await listMail(db, { status: query.status }, pageWindow(query));
    return Response.json(paginatedBody(req, query, items, total, "messages"));
  }),
});
