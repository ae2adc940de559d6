import { withOperator } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { grantBody } from "@/lib/services/sign-in/schemas";
import { operatorGrant } from "@/lib/services/sign-in/operator-actions";
import { ledgerEntryResponse } from "@/lib/domain/wallet/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withOperator({ body: grantBody, doc: { summary: "Grant tokens to an account (operator)", status: 201, response: ledgerEntryResponse } }, async ({ db, body }) => Response.json(await operatorGrant(db, body), { status: 201 })),
});
