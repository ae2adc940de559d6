import { withAccount } from "@/lib/http/wrappers";
import { BG_REMOVE_COST } from "@/lib/services/bg-remove/pricing";
import { methods } from "@/lib/http/methods";
import { createBgRemoveJob } from "@/lib/services/bg-remove/create-bg-remove-job";
import { createBgRemoveBody, createdBgRemoveJobResponse } from "@/lib/services/bg-remove/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withAccount({ body: createBgRemoveBody, doc: { summary: `Remove an image's background (${BG_REMOVE_COST} tokens, asynchronous: poll the job)`, status: 202, billed: true, response: createdBgRemoveJobResponse, examples: { request: { image_url: "https://example.com/photos/portrait.jpg", subject_type: "person" } } } }, async ({ db, principal, body }) =>
    Response.json(await createBgRemoveJob(db, principal.account.id, body), { status: 202 }),
  ),
});
