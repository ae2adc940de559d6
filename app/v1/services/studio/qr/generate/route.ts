import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { generateQrCards } from "@/lib/services/qr/generate-qr-cards";
import { generateQrBody } from "@/lib/services/qr/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withAccount({ body: generateQrBody }, async ({ db, principal, body }) => Response.json(await generateQrCards(db, principal.account, body))),
});
