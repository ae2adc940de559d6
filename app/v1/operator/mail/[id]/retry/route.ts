import { withOperator } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { noBody } from "@/lib/http/no-body";
import { operatorRetryMail } from "@/lib/mail/list-mail";
import { mailMessageResponse, mailParams } from "@/lib/mail/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withOperator({ params: mailParams, body: noBody, doc: { summary: "Give a failed email one more attempt now (operator)", status: 202, response: mailMessageResponse } }, async ({ db, params }) =>
    Response.json(await operatorRetryMail(db, params.id), { status: 202 }),
  ),
});
