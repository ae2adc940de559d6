import { SignJWT, jwtVerify } from "jose";
import { derivedKey } from "@/lib/foundation/secret";

const ISSUER = "print-studio";
const AUDIENCE = "print-studio/parent";
/** A parent's session on a phone: long enough for an evening of choosing, never past the gallery's expiry. */
export const PARENT_TOKEN_TTL_SECONDS = 12 * 3600;

/** What a gallery token carries: the studio, the job and the child whose code was entered. */
export type ParentClaims = { accountId: string; jobId: number; subjectId: string };

/** A signed JWT (HS256, its own derived key and audience: never accepted as a studio access token, nor one as this). */
export async function issueParentToken(claims: ParentClaims, expiresAt: Date): Promise<string> {
  return new SignJWT({ acc: claims.accountId, job: claims.jobId })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(claims.subjectId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .sign(derivedKey("parent-token"));
}

/** The claims, or null when the token is malformed, forged or expired. */
export async function verifyParentToken(token: string): Promise<ParentClaims | null> {
  try {
    const { payload } = await jwtVerify(token, derivedKey("parent-token"), { issuer: ISSUER, audience: AUDIENCE, algorithms: ["HS256"] });
    if (typeof payload.sub !== "string" || typeof payload.acc !== "string" || typeof payload.job !== "number") return null;
    return { accountId: payload.acc, jobId: payload.job, subjectId: payload.sub };
  } catch {
    return null;
  }
}

/**
 * When a token issued now should end: its TTL, or sooner when everything it opens
 * expires sooner (each request still checks which galleries are open).
 */
export function parentTokenExpiry(galleryExpiries: (Date | null)[], now = Date.now()): Date {
  const ttlEnd = now + PARENT_TOKEN_TTL_SECONDS * 1000;
  if (galleryExpiries.length === 0 || galleryExpiries.some((e) => e === null)) return new Date(ttlEnd);
  return new Date(Math.min(ttlEnd, Math.max(...galleryExpiries.map((e) => e!.getTime()))));
}
