import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { getFaceCropTask } from "@/lib/services/face-crop/get-task";
import { faceCropTaskResponse, taskParams } from "@/lib/services/face-crop/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ params: taskParams, doc: { summary: "A Face Crop task (poll until completed or failed)", response: faceCropTaskResponse } }, async ({ db, principal, params }) => Response.json(await getFaceCropTask(db, principal.account.id, params.taskId))),
});
