import crypto from "node:crypto";

/** Keys look like `psk_live_<43 chars>`: recognisable in logs and secret scanners. */
export const API_KEY_PREFIX = "psk_live_";

export function generateApiKey(): string {
  return API_KEY_PREFIX + crypto.randomBytes(32).toString("base64url");
}

export function hashApiKey(key: string): string {
  return crypto.createHash("sha256").update(key).digest("hex");
}

export function looksLikeApiKey(token: string): boolean {
  return token.startsWith(API_KEY_PREFIX);
}
