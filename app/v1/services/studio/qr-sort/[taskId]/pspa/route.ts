import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { pspaZip } from "@/lib/services/qr-sort/pspa";
import { sortTaskParams } from "@/lib/services/qr-sort/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount(
    {
      params: sortTaskParams,
      doc: {
        summary: "A finished QR sort as a PSPA package for yearbook software: INDEX.TXT beside folders of 4:5 portraits, at least 640 × 800, cropped with Face Crop's school preset (free)",
        produces: "application/zip",
      },
    },
    async ({ db, principal, params }) => {
      const { filename, stream } = await pspaZip(db, principal.account.id, params.taskId);
      return new Response(stream, { headers: { "Content-Type": "application/zip", "Content-Disposition": `attachment; filename="${filename}"` } });
    },
  ),
});
