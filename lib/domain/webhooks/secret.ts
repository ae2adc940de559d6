import crypto from "node:crypto";

/** Standard Webhooks secrets: `whsec_` + base64 of 24 random bytes (the key the HMAC uses). */
export function generateWebhookSecret(): string {
  return `whsec_${crypto.randomBytes(24).toString("base64")}`;
}
