import { withPublic } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { clientIp } from "@/lib/foundation/http/client-ip";
import { registerBody, registeredResponse } from "@/lib/services/sign-in/schemas";
import { createAccount } from "@/lib/domain/identity/create-account";
import { toPublicAccount } from "@/lib/domain/identity/public-account";
import { assertRegistrationAllowed } from "@/lib/services/sign-in/register-throttle";
import { sendVerificationLink } from "@/lib/domain/identity/email-verification";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withPublic({ body: registerBody, doc: { summary: "Create an account (free plan; emails a confirmation link, the sign-up tokens come with it)", status: 201, response: registeredResponse } }, async ({ db, body, req }) => {
    await assertRegistrationAllowed(clientIp(req));
    const account = await createAccount(db, body);
    // With the mail server down the link waits in the outbox and is retried (lib/domain/mail); the account exists either way.
    await sendVerificationLink(db, account).catch((err: Error) => console.warn(`[mail] the confirmation link for ${account.id} could not be queued: ${err.message}`));
    return Response.json({ account: toPublicAccount(account) }, { status: 201 });
  }),
});
