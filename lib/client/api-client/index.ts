import createClient, { type Middleware } from "openapi-fetch";
import type { components, paths } from "./schema";

export type { components, paths } from "./schema";
/** A schema of the API by name: `ApiSchema<"InsufficientTokens">`. */
export type ApiSchema<K extends keyof components["schemas"]> = components["schemas"][K];

function randomKey(): string {
  const c = globalThis.crypto;
  if (typeof c?.randomUUID === "function") return c.randomUUID();
  return Array.from(c.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Every POST gets an Idempotency-Key unless the caller set one (then a retry with the same key is safe). */
const idempotencyKeys: Middleware = {
  onRequest({ request }) {
    if (request.method === "POST" && !request.headers.has("idempotency-key")) request.headers.set("idempotency-key", randomKey());
    return request;
  },
};

/**
 * A typed client of the Print Studio API (openapi-fetch over the generated
 * `paths`): `const api = createApiClient({ baseUrl, token }); const { data, error } = await api.GET("/v1/wallet")`.
 * In the studio, leave out baseUrl and token: same origin, session cookie.
 */
export function createApiClient(opts: { baseUrl?: string; token?: string; fetch?: typeof fetch } = {}) {
  const client = createClient<paths>({
    baseUrl: opts.baseUrl ?? "",
    ...(opts.fetch ? { fetch: opts.fetch } : {}),
    headers: opts.token ? { Authorization: `Bearer ${opts.token}` } : {},
    credentials: "same-origin",
  });
  client.use(idempotencyKeys);
  return client;
}

export type ApiClient = ReturnType<typeof createApiClient>;
