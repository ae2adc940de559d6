import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { cardGalleryCodes } from "@/lib/services/galleries/card-codes";
import { generateQrCards } from "@/lib/services/qr/generate-qr-cards";
import { generateQrBody, generateQrResponse } from "@/lib/services/qr/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withAccount(
    {
      body: generateQrBody,
      doc: {
        summary: "Print QR cards for a roster as one PDF (1 token per subject)",
        billed: true,
        response: generateQrResponse,
        examples: { request: { job_id: "SPRING-2026", school_name: "Lincoln Elementary", subjects: [{ student_id: "S1001", name: "Ada Lovelace", class_name: "5A" }] } },
      },
    },
    async ({ db, principal, body }) => Response.json(await generateQrCards(db, principal.account, body, cardGalleryCodes)),
  ),
});
