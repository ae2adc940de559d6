import { withParent } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { getParentPhoto } from "@/lib/services/galleries/parent-photos";
import { parentPhoto, photoIdParams } from "@/lib/services/galleries/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withParent({ params: photoIdParams, doc: { summary: "One photo of a gallery the token opens", response: parentPhoto } }, async ({ db, principal, params }) =>
    Response.json(await getParentPhoto(db, principal, params.photoId)),
  ),
});
