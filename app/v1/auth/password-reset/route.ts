import { withPublic } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { clientIp } from "@/lib/foundation/http/client-ip";
import { acceptedResponse, passwordResetBody } from "@/lib/services/sign-in/schemas";
import { requestPasswordReset } from "@/lib/services/sign-in/password-reset";
import { assertMailRequestAllowed } from "@/lib/services/sign-in/mail-throttle";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withPublic({ body: passwordResetBody, doc: { summary: "Email a password reset link (202 whatever the address)", status: 202, response: acceptedResponse } }, async ({ db, body, req }) => {
    await assertMailRequestAllowed(clientIp(req));
    requestPasswordReset(db, body.email);
    return Response.json({ status: "accepted", message: "If an account has this address, a link to choose a new password is on its way. It works once, for one hour." }, { status: 202 });
  }),
});
