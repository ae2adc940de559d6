import crypto from "node:crypto";
import { generateSecret, generateURI, verify } from "otplib";
import { derivedKey } from "@/lib/foundation/secret";

// TOTP (RFC 6238) through otplib: 6 digits, 30-second steps, SHA-1, as every
// authenticator app (Google Authenticator, 1Password, Authy) reads an otpauth:// URI.
// The secret is stored encrypted (AES-256-GCM, key derived from the server secret),
// so a copy of the database alone does not give the codes away.

const PERIOD = 30;
/** One step either side: a phone clock a little off, or a code typed as it changed. */
const TOLERANCE_SECONDS = PERIOD;

export function newTotpSecret(): string {
  return generateSecret();
}

export function totpUri(secret: string, label: string): string {
  return generateURI({ issuer: "Print Studio", label, secret });
}

/**
 * The time step the code is valid for, or null. `afterStep` refuses a code for a
 * step already used (a code seen over a shoulder or replayed from a log).
 */
export async function checkTotp(secret: string, code: string, afterStep: number | null): Promise<number | null> {
  if (!/^\d{6}$/.test(code)) return null;
  const result = await verify({ secret, token: code, epochTolerance: TOLERANCE_SECONDS, ...(afterStep === null ? {} : { afterTimeStep: afterStep }) });
  // TOTP results carry the step (HOTP's do not: the union is otplib's).
  return result.valid && "timeStep" in result ? result.timeStep : null;
}

const key = () => derivedKey("totp-secret");

export function sealSecret(secret: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv("aes-256-gcm", key(), iv);
  const body = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
  return ["v1", iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), body.toString("base64url")].join(".");
}

export function openSecret(sealed: string): string {
  const [version, iv, tag, body] = sealed.split(".");
  if (version !== "v1" || !iv || !tag || !body) throw new Error("unreadable two-factor secret");
  const decipher = crypto.createDecipheriv("aes-256-gcm", key(), Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
}
