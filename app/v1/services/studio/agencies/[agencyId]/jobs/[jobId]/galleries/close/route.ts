import { z } from "zod";
import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { jobGalleriesParams } from "@/lib/services/galleries/schemas";
import { closeJobGalleries } from "@/lib/services/galleries/studio-galleries";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withAccount(
    { params: jobGalleriesParams, role: "admin", doc: { summary: "Close the job's galleries now: codes and tokens stop opening them", response: z.object({ job_id: z.number().int(), galleries: z.number().int(), status: z.literal("closed") }) } },
    async ({ db, principal, params }) => Response.json(await closeJobGalleries(db, principal.account.id, params.agencyId, params.jobId)),
  ),
});
