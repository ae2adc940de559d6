import { withOperator } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { pageQuery, pageWindow, paginatedBody, paginatedResponse } from "@/lib/foundation/http/pagination";
import { listOutbox } from "@/lib/domain/mail/outbox";
import { outboxEntryResponse } from "@/lib/domain/mail/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withOperator({ query: pageQuery, doc: { summary: "Messages written to the outbox (no SMTP_URL), newest first (operator)", response: paginatedResponse(outboxEntryResponse) } }, async ({ query, req }) => {
    const { items, total } = await listOutbox(pageWindow(query));
    return Response.json(paginatedBody(req, query, items, total, "messages"));
  }),
});
