import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { deleteReport, getReport } from "@/lib/services/preflight/reports";
import { reportParams } from "@/lib/services/preflight/schemas";
import { reportEnvelope } from "@/lib/services/preflight/report-response";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ params: reportParams, doc: { summary: "A preflight report with its issues, a signed URL of the checked file and its preview", response: reportEnvelope } }, async ({ db, principal, params }) => Response.json({ data: await getReport(db, principal.account.id, params.reportId) })),
  DELETE: withAccount({ params: reportParams, doc: { summary: "Delete a report and its stored file (the monthly quota is not given back)", status: 204 } }, async ({ db, principal, params }) => {
    await deleteReport(db, principal.account.id, params.reportId);
    return new Response(null, { status: 204 });
  }),
});
