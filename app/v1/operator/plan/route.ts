import { withOperator } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { planBody, registeredResponse } from "@/lib/services/sign-in/schemas";
import { operatorSetPlan } from "@/lib/services/sign-in/operator-actions";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  PUT: withOperator({ body: planBody, doc: { summary: "Set an account's plan (operator)", response: registeredResponse } }, async ({ db, body }) => Response.json({ account: await operatorSetPlan(db, body) })),
});
