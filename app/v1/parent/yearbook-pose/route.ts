import { withParent } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { chooseYearbookPose, getYearbookPose } from "@/lib/services/galleries/yearbook-pose";
import { yearbookPoseBody, yearbookPoseResponse } from "@/lib/services/galleries/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withParent({ doc: { summary: "The child's yearbook pose, its deadline, and whether it can still change", response: yearbookPoseResponse } }, async ({ db, principal }) =>
    Response.json(await getYearbookPose(db, principal)),
  ),
  PUT: withParent({ body: yearbookPoseBody, doc: { summary: "Choose (or change) the child's yearbook pose until the job's deadline", response: yearbookPoseResponse } }, async ({ db, principal, body }) =>
    Response.json(await chooseYearbookPose(db, principal, body.photo_id)),
  ),
});
