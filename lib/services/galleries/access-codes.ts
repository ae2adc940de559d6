import crypto from "node:crypto";
import { derivedKey } from "@/lib/foundation/secret";

// Access codes: 10 characters of Crockford's base32 (no I, L, O, U: nothing a
// parent can misread from a card), 50 bits from crypto.randomBytes. Shown as
// two groups of five ("7KQ2M-9XD4P"). Parents may type them in lower case, with
// or without the dash or spaces, and with O/I/L for 0/1/1.

const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
export const CODE_LENGTH = 10;
/** 10 × 5 bits. */
export const CODE_BITS = CODE_LENGTH * 5;

/** A fresh random code, grouped for print. */
export function newAccessCode(): string {
  const bytes = crypto.randomBytes(CODE_LENGTH);
  // 256 is a multiple of 32: every byte's low five bits are uniform.
  const raw = Array.from(bytes, (b) => ALPHABET[b & 31]).join("");
  return formatCode(raw);
}

export const formatCode = (raw: string) => `${raw.slice(0, 5)}-${raw.slice(5)}`;

/** The canonical 10 characters of what a parent typed, or null when it cannot be a code. */
export function normaliseCode(input: string): string | null {
  const s = input
    .toUpperCase()
    .replace(/[\s-]/g, "")
    .replace(/O/g, "0")
    .replace(/[IL]/g, "1");
  if (s.length !== CODE_LENGTH) return null;
  for (const c of s) if (!ALPHABET.includes(c)) return null;
  return s;
}

/** The keyed lookup a code is stored and found by (HMAC: without the server key, the table says nothing about codes). */
export function codeLookup(normalised: string): string {
  return crypto.createHmac("sha256", derivedKey("gallery-code-lookup")).update(normalised).digest("base64url");
}

/** The code encrypted for the studio's lists and printouts (AES-256-GCM, random nonce). */
export function sealCode(code: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv("aes-256-gcm", derivedKey("gallery-code-seal"), iv);
  const body = Buffer.concat([cipher.update(code, "utf8"), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((b) => b.toString("base64url")).join(".");
}

export function openCode(sealed: string): string {
  const [iv, tag, body] = sealed.split(".").map((p) => Buffer.from(p, "base64url"));
  const decipher = crypto.createDecipheriv("aes-256-gcm", derivedKey("gallery-code-seal"), iv!);
  decipher.setAuthTag(tag!);
  return Buffer.concat([decipher.update(body!), decipher.final()]).toString("utf8");
}
