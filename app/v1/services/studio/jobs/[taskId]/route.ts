import { z } from "zod";
import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { faceCropTaskResponse, taskParams } from "@/lib/services/face-crop/schemas";
import { getStudioTask } from "@/lib/services/studio-tasks/get-studio-task";
import { matchJobResponse, referencesTaskResponse } from "@/lib/services/matching/schemas";
import { sortTaskResponse } from "@/lib/services/qr-sort/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount(
    {
      params: taskParams,
      doc: {
        summary: "A studio task: a Face Crop batch, a face matching reference build (type face_references) a match job (type match_job) or a QR sort (type qr_sort); poll until completed or failed",
        response: z.union([faceCropTaskResponse, referencesTaskResponse, matchJobResponse.extend({ type: z.literal("match_job") }), sortTaskResponse]),
      },
    },
    async ({ db, principal, params }) => Response.json(await getStudioTask(db, principal.account.id, params.taskId)),
  ),
});
