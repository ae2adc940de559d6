import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { getDb } from "@/lib/foundation/db/client";
import { serverSecret } from "@/lib/foundation/secret";
import { signInWithPassword } from "@/lib/services/sign-in/sign-in";
import { ApiError } from "@/lib/foundation/http/api-error";
import { startLoginSession } from "@/lib/domain/identity/login-sessions";
import { personName } from "@/lib/domain/identity/person-name";

const SESSION_MAX_AGE = 30 * 24 * 3600;

// Preview deployments (Vercel) and local runs have no fixed URL: trust the
// Host header unless NEXTAUTH_URL pins one.
if (!process.env.NEXTAUTH_URL) process.env.AUTH_TRUST_HOST ??= "1";

/** next-auth for the studio's browser sessions: email + password, JWT session cookie. */
export function authOptions(): NextAuthOptions {
  return {
    secret: serverSecret(),
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE },
    pages: { signIn: "/signin" },
    providers: [
      CredentialsProvider({
        name: "Email and password",
        credentials: {
          email: { label: "Email", type: "email" },
          password: { label: "Password", type: "password" },
          code: { label: "Authentication code", type: "text" },
        },
        async authorize(credentials, req) {
          const email = credentials?.email ?? "";
          const password = credentials?.password ?? "";
          if (!email || !password) return null;
          const db = await getDb();
          const forwarded = req?.headers?.["x-forwarded-for"];
          const ip = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(",")[0]?.trim() ?? null;
          let account;
          try {
            account = await signInWithPassword(db, { email, password, code: credentials?.code, channel: "studio", ip });
          } catch (err) {
            // next-auth hands the message to the sign-in form as `error`: the form asks for
            // the code on TWO_FACTOR_REQUIRED and words the others (sign-in-form.tsx).
            if (err instanceof ApiError) throw new Error(err.code);
            throw err;
          }
          const userAgent = req?.headers?.["user-agent"];
          const sid = await startLoginSession(db, { userId: account.id, kind: "studio", ip, userAgent: Array.isArray(userAgent) ? userAgent[0] : userAgent, ttlSeconds: SESSION_MAX_AGE });
          return { id: account.id, email: account.email, name: personName(account), credentialsVersion: account.credentialsVersion, sid };
        },
      }),
    ],
    callbacks: {
      // The cookie carries the credentials version it was signed in under: a password reset or change ends it (lib/domain/identity/end-sessions.ts).
      jwt({ token, user }) {
        if (user) {
          token.cv = (user as { credentialsVersion?: number }).credentialsVersion ?? 0;
          // The login session (lib/domain/identity/login-sessions.ts): the account page lists it and can end it.
          token.sid = (user as { sid?: string }).sid;
        }
        return token;
      },
      session({ session, token }) {
        return { ...session, user: { ...session.user, id: token.sub, cv: typeof token.cv === "number" ? token.cv : 0, sid: typeof token.sid === "string" ? token.sid : undefined } };
      },
    },
  };
}
