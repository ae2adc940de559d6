import { getDb } from "@/lib/foundation/db/client";
import { previewFile } from "@/lib/services/galleries/parent-photos";

// A gallery photo's watermarked preview, from a URL signed for one photo and one
// child's code (lib/services/galleries/preview-urls.ts). Never an original.
export const dynamic = "force-dynamic";
export const runtime = "nodejs";

type Context = { params: Promise<{ photoId: string }> };

export async function GET(request: Request, { params }: Context) {
  const { photoId } = await params;
  const file = await previewFile(await getDb(), photoId, new URL(request.url).searchParams);
  if (!file) {
    return Response.json({ error: "NOT_FOUND", message: "Photo not found." }, { status: 404, headers: { "Cache-Control": "no-store", "X-Robots-Tag": "noindex" } });
  }
  const maxAge = Math.max(0, file.expires - Math.floor(Date.now() / 1000));
  return new Response(new Uint8Array(file.body), {
    headers: {
      "Content-Type": file.contentType,
      "Content-Length": String(file.body.byteLength),
      // private: the URL is a credential; shared caches must not keep it.
      "Cache-Control": `private, max-age=${maxAge}`,
      "X-Content-Type-Options": "nosniff",
      "X-Robots-Tag": "noindex",
    },
  });
}
