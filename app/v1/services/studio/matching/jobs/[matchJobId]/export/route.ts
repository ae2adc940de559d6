import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { matchJobCsv } from "@/lib/services/matching/export-csv";
import { matchJobParams } from "@/lib/services/matching/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount(
    { params: matchJobParams, doc: { summary: "A match job as CSV: file name, face, subject, student id, decision, score and who decided, one row per face", produces: "text/csv" } },
    async ({ db, principal, params }) => {
      const { filename, csv } = await matchJobCsv(db, principal.account.id, params.matchJobId);
      return new Response(csv, { headers: { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": `attachment; filename="${filename}"` } });
    },
  ),
});
