import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { sortCsv } from "@/lib/services/qr-sort/export-sort";
import { sortTaskParams } from "@/lib/services/qr-sort/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount(
    { params: sortTaskParams, doc: { summary: "A finished QR sort as CSV: file, capture order and time, subject, student id, role, who decided, review reasons (free)", produces: "text/csv" } },
    async ({ db, principal, params }) => {
      const { filename, csv } = await sortCsv(db, principal.account.id, params.taskId);
      return new Response(csv, { headers: { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": `attachment; filename="${filename}"` } });
    },
  ),
});
