import { z } from "zod";
import { withParent } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { listParentGalleries } from "@/lib/services/galleries/parent-photos";
import { parentGallery } from "@/lib/services/galleries/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withParent({ doc: { summary: "The galleries the gallery token opens: the child's own and the job's group gallery", response: z.object({ data: z.array(parentGallery) }) } }, async ({ db, principal }) =>
    Response.json({ data: await listParentGalleries(db, principal) }),
  ),
});
