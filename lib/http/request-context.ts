import { AsyncLocalStorage } from "node:async_hooks";

/**
 * The /v1 request a handler is serving, for code far below it that builds a
 * link without a request at hand (the 402's top_up_url, thrown from inside a
 * debit). On globalThis so every route bundle of the process shares one store.
 */
const holder = globalThis as unknown as { __printStudioRequestContext?: AsyncLocalStorage<{ url: string }> };
const store = (holder.__printStudioRequestContext ??= new AsyncLocalStorage<{ url: string }>());

export function runInRequestContext<T>(req: Request, fn: () => Promise<T>): Promise<T> {
  return store.run({ url: req.url }, fn);
}

/** The URL of the request being served, or undefined outside one (jobs, the CLI). */
export function currentRequestUrl(): string | undefined {
  return store.getStore()?.url;
}
