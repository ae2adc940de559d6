import { withParent } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { parentPhotoFace } from "@/lib/services/orders/parent-photo-face";
import { parentPhotoFaceResponse } from "@/lib/services/orders/schemas";
import { photoIdParams } from "@/lib/services/galleries/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withParent(
    { params: photoIdParams, doc: { summary: "The photo's face and Face Crop's framing of it, where the cart's crop starts (found once per photo and kept)", response: parentPhotoFaceResponse } },
    async ({ db, principal, params }) => Response.json(await parentPhotoFace(db, principal, params.photoId)),
  ),
});
