import { z } from "zod";

const email = z.email("Enter a valid email address.").max(254);

export const registerBody = z.strictObject({
  email,
  password: z.string().min(1).max(200),
  name: z.string().trim().min(1, "Enter a name.").max(100),
});

export const tokenBody = z.strictObject({
  email,
  password: z.string().min(1).max(200),
  /** The authenticator app's 6 digits or a recovery code, when the login has two-factor on (else 401 TWO_FACTOR_REQUIRED). */
  code: z.string().trim().min(1).max(40).optional(),
});

export const grantBody = z.strictObject({
  email,
  tokens: z.number().int().min(1).max(10_000_000),
  reason: z.string().trim().min(1).max(500),
});

export const planBody = z.strictObject({
  email,
  plan: z.enum(["free", "premium"]),
});

export const releaseHoldBody = z.strictObject({
  email,
  reason: z.string().trim().min(1).max(500),
});

/** GET /v1/account (toPublicAccount). */
export const publicAccountResponse = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  plan: z.enum(["free", "premium"]),
  /** False until the address is confirmed by its emailed link (the sign-up tokens come then). */
  email_verified: z.boolean(),
  /** Set while a refunded or disputed payment's spent tokens are unsettled: billed operations answer 402 ACCOUNT_ON_HOLD. */
  hold: z.object({ reason: z.string(), since: z.string() }).nullable(),
});

/** A link token from an email: 43 base64url characters (256 bits); a little slack so an altered one is judged, not refused as malformed. */
const linkToken = z.string().trim().min(1, "Paste the whole link.").max(200);
const newPassword = z.string().min(1).max(200);

export const passwordResetBody = z.strictObject({ email });
export const passwordResetConfirmBody = z.strictObject({ token: linkToken, password: newPassword });
export const emailVerificationConfirmBody = z.strictObject({ token: linkToken });
export const renameAccountBody = z.strictObject({ name: z.string().trim().min(1, "Enter a name.").max(100) });
/** DELETE /v1/account: the studio's name typed back, the password, and the code when two-factor is on. */
export const deleteStudioBody = z.strictObject({
  confirm_name: z.string().min(1, "Type the studio's name.").max(200),
  current_password: z.string().min(1).max(200),
  code: z.string().trim().min(1).max(40).optional(),
});
export const studioDeletedResponse = z.object({ deleted: z.literal(true), files_deleted: z.number().int() });
/** PATCH /v1/account/profile: the person's own name. */
export const profileBody = z.strictObject({ name: z.string().trim().min(1, "Enter a name.").max(100) });
export const profileResponse = z.object({ user_id: z.string(), name: z.string(), email: z.string() });
export const changePasswordBody = z.strictObject({ current_password: z.string().min(1).max(200), new_password: newPassword });
export const changeEmailBody = z.strictObject({ email, current_password: z.string().min(1).max(200) });

/** POST /v1/auth/password-reset -> 202, whatever the address. */
export const acceptedResponse = z.object({ status: z.literal("accepted"), message: z.string() });
/** POST /v1/auth/email-verification -> 202. */
/** `sent`: the mail server took the link; `queued`: it is in the outbox and is sent as soon as the mail server answers (retried for about a day). */
export const verificationSentResponse = z.object({ status: z.enum(["sent", "queued"]), email: z.string() });
/** POST /v1/account/email -> 202: the new address must confirm first. */
export const emailChangeResponse = z.object({ status: z.literal("pending_confirmation"), pending_email: z.string() });
/** The confirm endpoints answer with the account as it is now. */
export const accountResponse = z.object({ account: publicAccountResponse });

/** GET /v1/account: the studio the caller acts for, and who the caller is in it. */
export const callingAccountResponse = publicAccountResponse.extend({
  /** The caller's role in this studio (an API key acts as an admin). */
  role: z.enum(["owner", "admin", "photographer", "viewer"]),
  /** The studio requires two-factor sign-in of its owners and admins (PUT /v1/account/two-factor-requirement). */
  require_two_factor: z.boolean(),
  /** The person signed in; null for an API key. `name` is the person's own (PATCH /v1/account/profile), not the studio's. */
  member: z.object({ user_id: z.string(), name: z.string(), email: z.string(), email_verified: z.boolean(), two_factor_enabled: z.boolean() }).nullable(),
});

/** POST /v1/auth/token. */
export const accessTokenResponse = z.object({ access_token: z.string(), token_type: z.literal("Bearer"), expires_in: z.number().int().positive() });
/** POST /v1/auth/register -> 201. */
export const registeredResponse = z.object({ account: publicAccountResponse });
