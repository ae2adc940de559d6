import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { batchZip } from "@/lib/services/production/batch-downloads";
import { batchParams } from "@/lib/services/production/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount(
    {
      role: "photographer",
      params: batchParams,
      doc: {
        summary: "A batch for the lab: a ZIP of manifest.csv, manifest.json and every print file named {order}_{item}_{product}_{qty}.jpg",
        description: "Streamed. Items on hold are left out. 409 BATCH_NOT_READY while rendering or when nothing in it can go; 410 PRINT_FILES_REMOVED once the order photo retention has removed its files.",
        produces: "application/zip",
      },
    },
    async ({ db, principal, params }) => {
      const { filename, stream } = await batchZip(db, principal.account.id, params.id);
      return new Response(stream, { headers: { "Content-Type": "application/zip", "Content-Disposition": `attachment; filename="${filename}"` } });
    },
  ),
});
