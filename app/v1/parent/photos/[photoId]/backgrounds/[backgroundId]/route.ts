import { withParent } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { backgroundPreview } from "@/lib/services/production/background-preview";
import { backgroundPreviewParams } from "@/lib/services/production/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withParent(
    {
      params: backgroundPreviewParams,
      doc: {
        summary: "The child on one of the studio's backgrounds: a watermarked JPEG at preview size (at most 1,200 px)",
        description: "The photo's preview-size person matte is made on the first ask (seconds) and kept; later backgrounds are composites only. 404 for a photo the token does not open or a background that is not the studio's.",
        produces: "image/jpeg",
      },
    },
    async ({ db, principal, params }) => {
      const jpeg = await backgroundPreview(db, principal, params.photoId, params.backgroundId);
      // private: made for one child's code; the browser may keep it for the cart's session.
      return new Response(new Uint8Array(jpeg), { headers: { "Content-Type": "image/jpeg", "Content-Length": String(jpeg.byteLength), "Cache-Control": "private, max-age=3600", "X-Robots-Tag": "noindex" } });
    },
  ),
});
