import { withPublic } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { clientIp } from "@/lib/http/client-ip";
import { registerBody, registeredResponse } from "@/lib/accounts/schemas";
import { createAccount } from "@/lib/accounts/create-account";
import { toPublicAccount } from "@/lib/accounts/public-account";
import { assertRegistrationAllowed } from "@/lib/accounts/register-throttle";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withPublic({ body: registerBody, doc: { summary: "Create an account (free plan, sign-up tokens)", status: 201, response: registeredResponse } }, async ({ db, body, req }) => {
    await assertRegistrationAllowed(clientIp(req));
    const account = await createAccount(db, body);
    return Response.json({ account: toPublicAccount(account) }, { status: 201 });
  }),
});
