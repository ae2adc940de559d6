import { SignJWT, jwtVerify } from "jose";
import { config } from "@/lib/foundation/config";
import { derivedKey } from "@/lib/foundation/secret";
import { cachedTokenAccount, rememberToken } from "./principal-cache";

const ISSUER = "print-studio";
const AUDIENCE = "print-studio/v1";

/**
 * A signed JWT (HS256) naming the account, valid ACCESS_TOKEN_TTL_SECONDS. It
 * carries the account's credentials version (`cv`): once a password reset or
 * change moves it, the wrapper refuses the token (lib/domain/identity/end-sessions.ts).
 */
export async function issueAccessToken(account: { id: string; credentialsVersion: number }, sid?: string): Promise<{ token: string; expiresIn: number }> {
  const expiresIn = config().ACCESS_TOKEN_TTL_SECONDS;
  // `sid`: the login session (lib/domain/identity/login-sessions.ts) the person can see and end.
  const token = await new SignJWT({ cv: account.credentialsVersion, ...(sid ? { sid } : {}) })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(account.id)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${expiresIn}s`)
    .sign(derivedKey("access-token"));
  return { token, expiresIn };
}

/** The account id and credentials version, or null when the token is malformed, forged or expired. */
export async function verifyAccessToken(token: string): Promise<{ accountId: string; credentialsVersion: number; sid?: string } | null> {
  const known = cachedTokenAccount(token);
  if (known) return known;
  try {
    const { payload } = await jwtVerify(token, derivedKey("access-token"), {
      issuer: ISSUER,
      audience: AUDIENCE,
      algorithms: ["HS256"],
    });
    if (typeof payload.sub !== "string" || typeof payload.exp !== "number") return null;
    // Tokens issued before versions existed carry none: version 0, what every account started with.
    const credentialsVersion = typeof payload.cv === "number" ? payload.cv : 0;
    const sid = typeof payload.sid === "string" ? payload.sid : undefined;
    rememberToken(token, { accountId: payload.sub, credentialsVersion, sid }, payload.exp * 1000);
    return { accountId: payload.sub, credentialsVersion, sid };
  } catch {
    return null;
  }
}
