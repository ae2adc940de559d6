import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { getQrGeneration, qrGenerationParams, qrGenerationResponse } from "@/lib/services/qr/list-generations";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ params: qrGenerationParams, doc: { summary: "One Bulk QR run and its PDF (free)", response: qrGenerationResponse } }, async ({ db, principal, params }) =>
    Response.json(await getQrGeneration(db, principal.account.id, params.generationId)),
  ),
});
