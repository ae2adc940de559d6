// Calls route handlers in-process with real Requests, the way Next does.
import crypto from "node:crypto";
import { getDb } from "@/lib/foundation/db/client";
import { createAccount } from "@/lib/domain/identity/create-account";
import { issueAccessToken } from "@/lib/domain/identity/access-token";
import { responseMismatch } from "./support/openapi-check";

type Handler = (req: Request, ctx: { params: Promise<Record<string, string | string[] | undefined>> }) => Promise<Response>;
type Route = Partial<Record<"GET" | "POST" | "PUT" | "PATCH" | "DELETE", Handler>>;

export type CallOptions = {
  token?: string;
  body?: unknown;
  rawBody?: BodyInit;
  headers?: Record<string, string>;
  params?: Record<string, string | string[]>;
  ip?: string;
};

export async function call(route: Route, method: keyof Route, path: string, opts: CallOptions = {}) {
  const headers = new Headers(opts.headers);
  if (opts.token) headers.set("authorization", `Bearer ${opts.token}`);
  headers.set("x-forwarded-for", opts.ip ?? `203.0.113.${crypto.randomInt(1, 250)}`);
  let body: BodyInit | undefined = opts.rawBody;
  if (body instanceof FormData) {
    // A real server receives multipart bytes, not a FormData generator. Node 20's undici
    // also rejects unhandled ("ReadableStream is already closed") when a handler cancels a
    // FormData-backed body part way, as the size cap does on an oversized upload.
    const encoded = new Response(body);
    if (!headers.has("content-type")) headers.set("content-type", encoded.headers.get("content-type")!);
    body = Buffer.from(await encoded.arrayBuffer());
  }
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  }
  const handler = route[method];
  if (!handler) throw new Error(`route has no ${method}`);
  const req = new Request(`http://localhost:3000${path}`, { method, headers, body, ...(body ? { duplex: "half" } : {}) } as RequestInit);
  const res = await handler(req, { params: Promise.resolve(opts.params ?? {}) });
  const text = await res.text();
  let json: any = undefined;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  // Every answer of a described route must match GET /v1/openapi.json (error envelope, 402, 429, declared success shapes).
  const mismatch = responseMismatch(handler, method, path, res.status, json, res.headers.get("content-type"));
  if (mismatch) throw new Error(mismatch);
  return { status: res.status, headers: res.headers, json, text };
}

let counter = 0;
/**
 * A fresh account with a Bearer token; `tokens` sets its starting balance. Its
 * address is confirmed through the same step a followed link takes (which grants
 * `tokens` as the sign-up bonus); `verified: false` leaves it as a new sign-up is.
 */
export async function testAccount(opts: { tokens?: number; plan?: "free" | "premium"; verified?: boolean } = {}) {
  const db = await getDb();
  const email = `user${++counter}-${crypto.randomBytes(3).toString("hex")}@example.com`;
  const password = "correct horse battery staple";
  const account = await createAccount(db, { email, password, name: `User ${counter}`, plan: opts.plan, verified: opts.verified ?? true, signupTokens: opts.tokens ?? 100 });
  const { token } = await issueAccessToken(account);
  return { account, token, email, password };
}
