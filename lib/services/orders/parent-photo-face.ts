import type { Db } from "@/lib/foundation/db/types";
import type { ParentPrincipal } from "@/lib/services/galleries/parent-principal";
import { requireVisiblePhoto } from "@/lib/services/galleries/parent-photos";
import { photoFace } from "./photo-face";

/** GET /v1/parent/photos/{photoId}/face: the face the cart's crop starts from (404 for a photo the token does not open). */
export async function parentPhotoFace(db: Db, p: ParentPrincipal, photoId: string) {
  const photo = await requireVisiblePhoto(db, p, photoId);
  const face = await photoFace(db, photo.accountId, photo.jobFileId);
  return { photo_id: photoId, face: face ? { box: face.faceBox, frame: face.frame } : null };
}
