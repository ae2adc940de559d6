import { AsyncLocalStorage } from "node:async_hooks";

/**
 * The /v1 request a handler is serving, for code far below it that builds a
 * link without a request at hand (the 402's top_up_url, thrown from inside a
 * debit). On globalThis so every route bundle of the process shares one store.
 */
/**
 * Who is acting in this request, for the ledger (which member or key spent the
 * tokens) and the audit log, written far below the handler.
 */
export type RequestActor = { type: "member"; userId: string; name: string } | { type: "api_key"; apiKeyId: string; name: string };
type Context = { origin: string; ip?: string; userAgent?: string; actor?: RequestActor };

const holder = globalThis as unknown as { __printStudioRequestContext?: AsyncLocalStorage<Context> };
const store = (holder.__printStudioRequestContext ??= new AsyncLocalStorage<Context>());

export function runInRequestContext<T>(req: Request, fn: () => Promise<T>, who: { actor?: RequestActor; ip?: string } = {}): Promise<T> {
  return store.run({ origin: requestOrigin(req), userAgent: req.headers.get("user-agent") ?? undefined, ...who }, fn);
}

/** The caller's User-Agent in the request being served (a new login session names its device with it). */
export function currentUserAgent(): string | undefined {
  return store.getStore()?.userAgent;
}

/** The member or API key acting in the request being served, or undefined (jobs, the CLI, public endpoints). */
export function currentActor(): RequestActor | undefined {
  return store.getStore()?.actor;
}

/** The caller's IP in the request being served. */
export function currentClientIp(): string | undefined {
  return store.getStore()?.ip;
}

/** The origin of the request being served, or undefined outside one (jobs, the CLI). */
export function currentRequestOrigin(): string | undefined {
  return store.getStore()?.origin;
}

/** A host[:port] as a Host header may carry it (name, IPv4, or [IPv6]); anything else is ignored. */
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * The origin the client called: the Host header it sent. The server's own view
 * of the URL names the address it is bound to (0.0.0.0 or its bind name under
 * `next start` and the standalone server), which no client can open. Behind a
 * proxy that rewrites Host, set APP_URL.
 */
export function requestOrigin(req: Request): string {
  const url = new URL(req.url);
  const host = req.headers.get("host");
  return host && HOST.test(host) ? `${url.protocol}//${host}` : url.origin;
}
