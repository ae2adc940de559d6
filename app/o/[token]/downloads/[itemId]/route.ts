import { getDb } from "@/lib/foundation/db/client";
import { contentDisposition } from "@/lib/domain/storage/content-disposition";
import { downloadFile } from "@/lib/services/orders/download-links";

// A digital line's full-resolution original, from the signed, expiring link on the
// order's status page and in its e-mails (lib/services/orders/download-links.ts).
export const dynamic = "force-dynamic";
export const runtime = "nodejs";

type Context = { params: Promise<{ token: string; itemId: string }> };

export async function GET(request: Request, { params }: Context) {
  const { token, itemId } = await params;
  const file = await downloadFile(await getDb(), decodeURIComponent(token), itemId, new URL(request.url).searchParams);
  if (!file) {
    return Response.json({ error: "NOT_FOUND", message: "This download link is not valid (expired, changed, or the item was refunded)." }, { status: 404, headers: { "Cache-Control": "no-store", "X-Robots-Tag": "noindex" } });
  }
  return new Response(new Uint8Array(file.body), {
    headers: {
      "Content-Type": file.contentType,
      "Content-Length": String(file.body.byteLength),
      "Content-Disposition": contentDisposition(file.filename),
      // The URL is a credential: no shared cache keeps it.
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
      "X-Robots-Tag": "noindex",
    },
  });
}
