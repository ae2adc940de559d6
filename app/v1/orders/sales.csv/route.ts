import Papa from "papaparse";
import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { salesByJob } from "@/lib/services/orders/studio-orders";
import { salesQuery } from "@/lib/services/orders/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ role: "admin", query: salesQuery, doc: { summary: "Sales per job as CSV (amounts in minor units)", produces: "text/csv" } }, async ({ db, principal, query }) => {
    const { data } = await salesByJob(db, principal.account.id, query);
    const csv = Papa.unparse({ fields: ["job_id", "job_name", "currency", "orders", "gross", "refunds", "fees", "lab_cost", "net"], data: data.map((r) => [r.job_id ?? "", r.job_name ?? "", r.currency, r.orders, r.gross, r.refunds, r.fees, r.lab_cost, r.net]) }, { escapeFormulae: true });
    return new Response(csv, { headers: { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": 'attachment; filename="sales-by-job.csv"' } });
  }),
});
