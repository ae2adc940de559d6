import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { sendJobCodes } from "@/lib/services/galleries/code-mail";
import { jobGalleriesParams, sendCodesBody, sendCodesResponse } from "@/lib/services/galleries/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withAccount(
    {
      params: jobGalleriesParams,
      body: sendCodesBody,
      role: "admin",
      doc: {
        summary: "E-mail the children's gallery codes to the parent addresses on the roster",
        description:
          "For the job's open child galleries: each code not yet e-mailed (publishing already mails them once), or every code again with resend: true; subject_ids limits it to those children. Says how many were e-mailed and how many children have no parent_email, were already mailed, or have no open gallery.",
        response: sendCodesResponse,
      },
    },
    async ({ db, principal, params, body }) => Response.json(await sendJobCodes(db, principal.account.id, params.agencyId, params.jobId, body)),
  ),
});
