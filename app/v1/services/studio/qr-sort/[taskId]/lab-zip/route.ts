import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { labZip } from "@/lib/services/qr-sort/export-sort";
import { sortTaskParams } from "@/lib/services/qr-sort/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount(
    {
      params: sortTaskParams,
      doc: { summary: "A finished QR sort's photos for the lab: a ZIP of every photo filed under a subject, named {student_id}_{last}_{first}_{nn}.jpg (free)", produces: "application/zip" },
    },
    async ({ db, principal, params }) => {
      const { filename, stream } = await labZip(db, principal.account.id, params.taskId);
      return new Response(stream, { headers: { "Content-Type": "application/zip", "Content-Disposition": `attachment; filename="${filename}"` } });
    },
  ),
});
