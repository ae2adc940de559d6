import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { batchSlips } from "@/lib/services/production/batch-downloads";
import { batchParams } from "@/lib/services/production/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount(
    { role: "photographer", params: batchParams, doc: { summary: "A batch's packing slips: one PDF page per order (child, class, items, QR of the order id), by teacher for school-bulk", produces: "application/pdf" } },
    async ({ db, principal, params }) => {
      const { filename, pdf } = await batchSlips(db, principal.account.id, params.id);
      return new Response(new Uint8Array(pdf), { headers: { "Content-Type": "application/pdf", "Content-Disposition": `inline; filename="${filename}"` } });
    },
  ),
});
