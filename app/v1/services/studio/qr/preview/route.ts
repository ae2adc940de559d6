import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { cardGalleryCodes } from "@/lib/services/galleries/card-codes";
import { previewQrCards } from "@/lib/services/qr/preview-qr-cards";
import { generateQrBody } from "@/lib/services/qr/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withAccount({ body: generateQrBody, doc: { summary: "A free preview PDF of the first QR cards (not billed)", produces: "application/pdf" } }, async ({ db, principal, body }) => {
    const pdf = await previewQrCards(db, principal.account, body, cardGalleryCodes);
    return new Response(Buffer.from(pdf), { headers: { "Content-Type": "application/pdf", "Content-Disposition": 'inline; filename="qr-preview.pdf"' } });
  }),
});
