import { hash, verify } from "@node-rs/argon2";

// argon2id with OWASP's recommended minimum (19 MiB, 2 passes, 1 lane).
const OPTIONS = { algorithm: 2 /* Algorithm.Argon2id (a const enum, not importable with isolatedModules) */, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(storedHash: string, password: string): Promise<boolean> {
  try {
    return await verify(storedHash, password);
  } catch {
    return false;
  }
}

/** A valid hash of a random password: verifying against it when the email is unknown keeps timing uniform. */
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(`dummy-${Math.random()}`);
  return dummyHash;
}

/** Why a password is too weak, or null. Length matters most (NIST 800-63B); a few obvious patterns are refused too. */
export function passwordWeakness(password: string, email?: string): string | null {
  if (password.length < 10) return "Use at least 10 characters.";
  if (password.length > 200) return "Use at most 200 characters.";
  if (new Set(password).size < 5) return "Use more varied characters (at least 5 different ones).";
  const lower = password.toLowerCase();
  const local = email?.split("@")[0]?.toLowerCase();
  if (local && local.length >= 4 && lower.includes(local)) return "Do not use your email address in the password.";
  if (/^(password|qwerty|letmein|welcome|123456|abc123|iloveyou)/.test(lower)) return "This password is too common.";
  return null;
}
