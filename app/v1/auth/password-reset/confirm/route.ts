import { withPublic } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { accountResponse, passwordResetConfirmBody } from "@/lib/accounts/schemas";
import { confirmPasswordReset } from "@/lib/accounts/password-reset";
import { toPublicAccount } from "@/lib/accounts/public-account";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withPublic({ body: passwordResetConfirmBody, doc: { summary: "Set a new password with the emailed link (ends every session)", response: accountResponse } }, async ({ db, body }) =>
    Response.json({ account: toPublicAccount(await confirmPasswordReset(db, body.token, body.password)) }),
  ),
});
