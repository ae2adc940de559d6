import { z } from "zod";
import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { jobGalleriesParams, reopenBody } from "@/lib/services/galleries/schemas";
import { reopenJobGalleries } from "@/lib/services/galleries/studio-galleries";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withAccount(
    {
      params: jobGalleriesParams,
      body: reopenBody,
      role: "admin",
      doc: { summary: "Reopen the job's closed or expired galleries until a new expiry (codes unchanged)", response: z.object({ job_id: z.number().int(), galleries: z.number().int(), status: z.literal("published"), expires_at: z.string() }) },
    },
    async ({ db, principal, params, body }) => Response.json(await reopenJobGalleries(db, principal.account.id, params.agencyId, params.jobId, body.expiry_days)),
  ),
});
