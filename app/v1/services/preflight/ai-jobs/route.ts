import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { createFixJob } from "@/lib/services/fixes/create-fix-job";
import { acceptedFixJobResponse, createFixJobBody } from "@/lib/services/fixes/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withAccount({ body: createFixJobBody, doc: { summary: "Start an AI fix job on a checked file (billed)", status: 202, billed: true, response: acceptedFixJobResponse } }, async ({ db, principal, body }) => Response.json({ data: await createFixJob(db, principal.account.id, body) }, { status: 202 })),
});
