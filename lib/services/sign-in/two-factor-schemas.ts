import { z } from "zod";

const currentPassword = z.string().min(1).max(200);
/** 6 digits from the app, or a recovery code (`XXXXX-XXXXX`); spaces are ignored. */
const code = z.string().trim().min(1, "Type the code.").max(40);

export const beginTwoFactorBody = z.strictObject({ current_password: currentPassword });
export const confirmTwoFactorBody = z.strictObject({ code });
export const disableTwoFactorBody = z.strictObject({ current_password: currentPassword, code });
export const recoveryCodesBody = z.strictObject({ current_password: currentPassword });
export const twoFactorRequirementBody = z.strictObject({ required: z.boolean() });

export const twoFactorStatusResponse = z.object({
  enabled: z.boolean(),
  enabled_at: z.string().nullable(),
  recovery_codes_left: z.number().int(),
  /** Studios where you are an owner or admin that require two-factor (it cannot be turned off while there are any). */
  required_by: z.array(z.object({ id: z.string(), name: z.string() })),
});
export const twoFactorSetupResponse = z.object({
  /** Base32, for apps that cannot scan: type it in by hand. */
  secret: z.string(),
  otpauth_uri: z.string(),
  /** The URI as a QR code (SVG data URL) to scan with the app. */
  qr_code: z.string(),
});
export const recoveryCodesResponse = z.object({ recovery_codes: z.array(z.string()) });
export const twoFactorEnabledResponse = recoveryCodesResponse.extend({ enabled: z.literal(true) });
export const twoFactorDisabledResponse = z.object({ enabled: z.literal(false) });
export const twoFactorRequirementResponse = z.object({
  required: z.boolean(),
  /** Owners and admins who have not turned two-factor on (they cannot act for the studio while it is required). */
  members_without_two_factor: z.array(z.object({ member_id: z.string(), name: z.string(), email: z.string(), role: z.enum(["owner", "admin"]) })),
});
