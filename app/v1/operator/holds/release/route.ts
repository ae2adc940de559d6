import { withOperator } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { registeredResponse, releaseHoldBody } from "@/lib/services/sign-in/schemas";
import { operatorReleaseHold } from "@/lib/services/sign-in/operator-actions";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withOperator({ body: releaseHoldBody, doc: { summary: "Release an account held after a refunded or disputed payment (operator)", response: registeredResponse } }, async ({ db, body }) => Response.json({ account: await operatorReleaseHold(db, body) })),
});
