import { decode } from "next-auth/jwt";
import { serverSecret } from "@/lib/foundation/secret";

const NAMES = ["__Secure-next-auth.session-token", "next-auth.session-token"];

function parseCookies(header: string | null): Map<string, string> {
  const map = new Map<string, string>();
  for (const part of (header ?? "").split(";")) {
    const i = part.indexOf("=");
    if (i > 0) map.set(part.slice(0, i).trim(), decodeURIComponent(part.slice(i + 1).trim()));
  }
  return map;
}

/**
 * The account id and credentials version in a browser's next-auth session cookie, or null. Read by
 * hand (not getToken) because getToken also accepts a Bearer header, which
 * must only ever mean an access token or API key here.
 */
export async function sessionFromCookie(req: Request): Promise<{ accountId: string; credentialsVersion: number; sid?: string } | null> {
  const cookies = parseCookies(req.headers.get("cookie"));
  for (const name of NAMES) {
    // next-auth splits large tokens into name.0, name.1, ...
    let value = cookies.get(name);
    if (!value) {
      const chunks: string[] = [];
      for (let i = 0; cookies.has(`${name}.${i}`); i++) chunks.push(cookies.get(`${name}.${i}`)!);
      value = chunks.join("") || undefined;
    }
    if (!value) continue;
    try {
      const token = await decode({ token: value, secret: serverSecret() });
      if (token?.sub) return { accountId: token.sub, credentialsVersion: typeof token.cv === "number" ? token.cv : 0, sid: typeof token.sid === "string" ? token.sid : undefined };
    } catch {
      return null;
    }
  }
  return null;
}

export function hasSessionCookie(req: Request): boolean {
  const header = req.headers.get("cookie") ?? "";
  return NAMES.some((n) => header.includes(n));
}
