import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { deleteReport, getReport } from "@/lib/services/preflight/reports";
import { reportParams } from "@/lib/services/preflight/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ params: reportParams }, async ({ db, principal, params }) => Response.json({ data: await getReport(db, principal.account.id, params.reportId) })),
  DELETE: withAccount({ params: reportParams }, async ({ db, principal, params }) => {
    await deleteReport(db, principal.account.id, params.reportId);
    return new Response(null, { status: 204 });
  }),
});
