import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { taskParams } from "@/lib/services/face-crop/schemas";
import { getStudioTask } from "@/lib/services/matching/studio-task";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ params: taskParams }, async ({ db, principal, params }) => Response.json(await getStudioTask(db, principal.account.id, params.taskId))),
});
