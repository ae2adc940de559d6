import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { pageWindow, paginatedBody, paginatedResponse } from "@/lib/foundation/http/pagination";
import { listAuditEvents } from "@/lib/services/team/audit-log";
import { auditEventResponse, auditQuery } from "@/lib/services/team/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ role: "admin", query: auditQuery, doc: { summary: "Who did what in the studio, newest first", response: paginatedResponse(auditEventResponse) } }, async ({ db, principal, query, req }) => {
    const { items, total } = await listAuditEvents(db, principal.account.id, pageWindow(query), query.action);
    return Response.json(paginatedBody(req, query, items, total, "events"));
  }),
});
