import { SignJWT, jwtVerify } from "jose";
import { config } from "@/lib/config";
import { derivedKey } from "@/lib/secret";

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
  try {
    const { payload } = await jwtVerify(token, derivedKey("access-token"), {
      issuer: ISSUER,
      audience: AUDIENCE,
      algorithms: ["HS256"],
    });
    return typeof payload.sub === "string" ? payload.sub : null;
  } catch {
    return null;
  }
}
