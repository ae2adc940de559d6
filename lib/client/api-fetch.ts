// Browser-side helper for the studio pages: they call the same /v1 API as third
// parties, authenticated by the session cookie.
import { newIdempotencyKey } from "./idempotency-key";

export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly body: { error?: string; message?: string; details?: unknown; [k: string]: unknown },
  ) {
    super(body.message ?? `Request failed with status ${status}`);
  }
}

export type ApiFetchInit = RequestInit & {
  json?: unknown;
  /**
   * The Idempotency-Key of a POST: pass the user action's key (useActionKey) so
   * a double click or a resubmission of the same action is charged once. A POST
   * without one gets a fresh key per call, reused on this helper's own retries.
   */
  idempotencyKey?: string;
};

/** Network failures are retried this many times, with the same Idempotency-Key. */
const RETRIES = 2;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function apiFetch<T>(path: string, init: ApiFetchInit = {}): Promise<T> {
  const { json, idempotencyKey, ...rest } = init;
  const headers = new Headers(rest.headers);
  if (json !== undefined) headers.set("content-type", "application/json");
  const post = (rest.method ?? "GET").toUpperCase() === "POST";
  if (post && !headers.has("idempotency-key")) headers.set("idempotency-key", idempotencyKey ?? newIdempotencyKey());
  const body = json !== undefined ? JSON.stringify(json) : rest.body;
  const res = await fetchWithRetries(path, { ...rest, headers, body, credentials: "same-origin" });
  if (res.status === 204) return undefined as T;
  const parsed = await res.json().catch(() => ({}));
  if (!res.ok) throw new ApiRequestError(res.status, parsed);
  return parsed as T;
}

/**
 * Sends a studio request, again where that is safe: a POST carries an
 * Idempotency-Key, so a network failure is retried with the same key (never
 * charged twice), and a 409 saying that key is still running is asked again
 * shortly. Other methods are sent once. The typed client (typed-api.ts) sends
 * through here too.
 */
export async function fetchWithRetries(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const request = new Request(input, init);
  const post = request.method === "POST" && request.headers.has("idempotency-key");
  const attempts = post ? RETRIES + 1 : 1;
  for (let attempt = 1; ; attempt++) {
    let res: Response;
    try {
      res = await fetch(post ? request.clone() : request);
    } catch (err) {
      if (attempt >= attempts) throw err;
      await pause(500 * attempt);
      continue;
    }
    // The same key is still running (another tab, or a retry overtook it): ask again shortly.
    if (res.status === 409 && attempt < attempts + 3 && res.headers.get("retry-after") && post) {
      const peek = await res.clone().json().catch(() => ({}));
      if (peek.error === "IDEMPOTENCY_REQUEST_IN_PROGRESS") {
        await pause(2000);
        continue;
      }
    }
    return res;
  }
}
