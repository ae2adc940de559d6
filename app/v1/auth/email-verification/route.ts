import { requirePerson } from "@/lib/domain/identity/roles";
import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { noBody } from "@/lib/foundation/http/no-body";
import { verificationSentResponse } from "@/lib/services/sign-in/schemas";
import { resendVerification } from "@/lib/domain/identity/email-verification";
import { assertMailRequestAllowed } from "@/lib/services/sign-in/mail-throttle";
import { clientIp } from "@/lib/foundation/http/client-ip";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withAccount({ role: "viewer", body: noBody, doc: { summary: "Send the address confirmation link again", status: 202, response: verificationSentResponse } }, async ({ db, principal, req }) => {
    await assertMailRequestAllowed(clientIp(req));
    const person = requirePerson(principal.user);
    const mail = await resendVerification(db, person);
    return Response.json({ status: mail === "sent" ? "sent" : "queued", email: person.email }, { status: 202 });
  }),
});
