import { withPublic } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { accountResponse, emailVerificationConfirmBody } from "@/lib/services/sign-in/schemas";
import { confirmEmailVerification } from "@/lib/domain/identity/email-verification";
import { toPublicAccount } from "@/lib/domain/identity/public-account";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withPublic({ body: emailVerificationConfirmBody, doc: { summary: "Confirm an address with the emailed link (first time: the sign-up bonus)", response: accountResponse } }, async ({ db, body }) =>
    Response.json({ account: toPublicAccount(await confirmEmailVerification(db, body.token)) }),
  ),
});
