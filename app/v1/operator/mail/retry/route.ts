import { withOperator } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { operatorRetryMail } from "@/lib/domain/mail/list-mail";
import { mailMessageResponse, retryMailBody } from "@/lib/domain/mail/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withOperator({ body: retryMailBody, doc: { summary: "Give a failed email one more attempt now (operator)", status: 202, response: mailMessageResponse } }, async ({ db, body }) =>
    Response.json(await operatorRetryMail(db, body.id), { status: 202 }),
  ),
});
