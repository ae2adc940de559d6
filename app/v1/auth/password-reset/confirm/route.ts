import { withPublic } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { accountResponse, passwordResetConfirmBody } from "@/lib/services/sign-in/schemas";
import { confirmPasswordReset } from "@/lib/services/sign-in/password-reset";
import { toPublicAccount } from "@/lib/domain/identity/public-account";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withPublic({ body: passwordResetConfirmBody, doc: { summary: "Set a new password with the emailed link (ends every session)", response: accountResponse } }, async ({ db, body }) =>
    Response.json({ account: toPublicAccount(await confirmPasswordReset(db, body.token, body.password)) }),
  ),
});
