import { withParent } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { addFavourite, removeFavourite } from "@/lib/services/galleries/parent-photos";
import { favouriteResponse, photoIdParams } from "@/lib/services/galleries/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  PUT: withParent({ params: photoIdParams, doc: { summary: "Mark a photo as a favourite (repeating is harmless)", response: favouriteResponse } }, async ({ db, principal, params }) =>
    Response.json(await addFavourite(db, principal, params.photoId)),
  ),
  DELETE: withParent({ params: photoIdParams, doc: { summary: "Unmark a favourite", response: favouriteResponse } }, async ({ db, principal, params }) =>
    Response.json(await removeFavourite(db, principal, params.photoId)),
  ),
});
