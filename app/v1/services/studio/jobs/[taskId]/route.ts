import { z } from "zod";
import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { faceCropTaskResponse, taskParams } from "@/lib/services/face-crop/schemas";
import { getStudioTask } from "@/lib/services/matching/studio-task";
import { matchJobResponse, referencesTaskResponse } from "@/lib/services/matching/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount(
    {
      params: taskParams,
      doc: {
        summary: "A studio task: a Face Crop batch, a face matching reference build (type face_references) or a match job (type match_job); poll until completed or failed",
        response: z.union([faceCropTaskResponse, referencesTaskResponse, matchJobResponse.extend({ type: z.literal("match_job") })]),
      },
    },
    async ({ db, principal, params }) => Response.json(await getStudioTask(db, principal.account.id, params.taskId)),
  ),
});
