import { SignJWT, jwtVerify } from "jose";
import { config } from "@/lib/config";
import { derivedKey } from "@/lib/secret";
import { cachedTokenAccount, rememberToken } from "./principal-cache";

const ISSUER = "print-studio";
const AUDIENCE = "print-studio/v1";

/** A signed JWT (HS256) naming the account; stateless, valid ACCESS_TOKEN_TTL_SECONDS. */
export async function issueAccessToken(accountId: string): Promise<{ token: string; expiresIn: number }> {
  const expiresIn = config().ACCESS_TOKEN_TTL_SECONDS;
  const token = await new SignJWT({})
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(accountId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${expiresIn}s`)
    .sign(derivedKey("access-token"));
  return { token, expiresIn };
}

/** The account id, or null when the token is malformed, forged or expired. */
export async function verifyAccessToken(token: string): Promise<string | null> {
  const known = cachedTokenAccount(token);
  if (known) return known;
  try {
    const { payload } = await jwtVerify(token, derivedKey("access-token"), {
      issuer: ISSUER,
      audience: AUDIENCE,
      algorithms: ["HS256"],
    });
    if (typeof payload.sub !== "string" || typeof payload.exp !== "number") return null;
    rememberToken(token, payload.sub, payload.exp * 1000);
    return payload.sub;
  } catch {
    return null;
  }
}
