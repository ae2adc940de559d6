import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { appOrigin } from "@/lib/foundation/http/app-origin";
import { flyerPdf, flyerSlips } from "@/lib/services/galleries/flyer-pdf";
import { jobGalleriesParams } from "@/lib/services/galleries/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount(
    {
      params: jobGalleriesParams,
      role: "photographer",
      doc: { summary: "The class flyer: a PDF of cut-apart slips, one per child, with the access code and a QR that opens the gallery (free)", produces: "application/pdf" },
    },
    async ({ db, principal, params }) => {
      const slips = await flyerSlips(db, principal.account.id, params.agencyId, params.jobId);
      const pdf = await flyerPdf(slips, appOrigin());
      return new Response(new Uint8Array(pdf), { headers: { "Content-Type": "application/pdf", "Content-Disposition": `attachment; filename="gallery-codes-job-${params.jobId}.pdf"` } });
    },
  ),
});
