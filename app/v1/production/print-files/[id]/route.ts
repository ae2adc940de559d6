import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { fixPrintFile } from "@/lib/services/production/fix-print-file";
import { printFileChoices } from "@/lib/services/production/print-file-choices";
import { fixPrintFileBody, printFileFixResponse, printFileParams, printFileResponse } from "@/lib/services/production/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ role: "photographer", params: printFileParams, doc: { summary: "A print file with what its fix can choose from: the child's photos (previews) and the print's size", response: printFileFixResponse } }, async ({ db, principal, params }) =>
    Response.json(await printFileChoices(db, principal.account.id, params.id)),
  ),
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
