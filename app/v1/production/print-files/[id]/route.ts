import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { fixPrintFile } from "@/lib/services/production/fix-print-file";
import { fixPrintFileBody, printFileParams, printFileResponse } from "@/lib/services/production/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  PATCH: withAccount(
    {
      role: "photographer",
      params: printFileParams,
      body: fixPrintFileBody,
      doc: {
        summary: "Fix a held print file (re-crop, another photo of the child, release a doubtful cut-out, drop the background); it is rendered and checked again",
        description: "409 PRINT_FILE_NOT_HELD unless the file is held. The answer is the file after its new render: rendered, or held again with the new reasons.",
        response: printFileResponse,
      },
    },
    async ({ db, principal, params, body, req }) => Response.json(await fixPrintFile(db, principal.account.id, params.id, body, req.signal)),
  ),
});
