import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { createBgRemoveJob } from "@/lib/services/bg-remove/create-bg-remove-job";
import { createBgRemoveBody } from "@/lib/services/bg-remove/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withAccount({ body: createBgRemoveBody }, async ({ db, principal, body }) =>
    Response.json(await createBgRemoveJob(db, principal.account.id, body), { status: 202 }),
  ),
});
