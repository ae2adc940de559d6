import { requirePerson } from "@/lib/domain/identity/roles";
import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { clientIp } from "@/lib/foundation/http/client-ip";
import { changeEmailBody, emailChangeResponse } from "@/lib/services/sign-in/schemas";
import { requestEmailChange } from "@/lib/services/sign-in/account-settings";
import { assertMailRequestAllowed } from "@/lib/services/sign-in/mail-throttle";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withAccount({ allowWithoutTwoFactor: true, role: "viewer", body: changeEmailBody, doc: { summary: "Change the address (the new one confirms by link first; the old one is told)", status: 202, response: emailChangeResponse } }, async ({ db, principal, body, req }) => {
    await assertMailRequestAllowed(clientIp(req));
    const { pending_email } = await requestEmailChange(db, requirePerson(principal.user), body);
    return Response.json({ status: "pending_confirmation", pending_email }, { status: 202 });
  }),
});
