import type { Db } from "@/lib/foundation/db/types";
import { unauthorized } from "@/lib/foundation/http/api-error";
import { openGalleriesOf } from "./open-galleries";
import { verifyParentToken } from "./parent-token";

/** Who a parent request acts as: the code's studio, job and child, and the galleries open to it now. */
export type ParentPrincipal = { accountId: string; jobId: number; subjectId: string; galleryIds: string[] };

const parentUnauthorized = (message: string) => {
  const err = unauthorized(message);
  (err.headers as Record<string, string>)["WWW-Authenticate"] = 'Bearer realm="parent"';
  return err;
};

/** `Authorization: Bearer <gallery token>` from POST /v1/parent/access; 401 when missing, forged, expired, or when nothing it opens is open any more. */
export async function authenticateParent(req: Request, db: Db): Promise<ParentPrincipal> {
  const authorization = req.headers.get("authorization");
  const [scheme, token, extra] = (authorization ?? "").trim().split(/\s+/);
  if (!authorization || scheme?.toLowerCase() !== "bearer" || !token || extra) {
    throw parentUnauthorized("Send the gallery token from POST /v1/parent/access as Authorization: Bearer <token>.");
  }
  const claims = await verifyParentToken(token);
  if (!claims) throw parentUnauthorized("The gallery token is invalid or expired: enter the access code again.");
  const open = await openGalleriesOf(db, claims);
  if (open.length === 0) throw parentUnauthorized("This gallery is closed.");
  return { ...claims, galleryIds: open.map((g) => g.id) };
}
