// What the studio's typed client (typed-api.ts) sends through and throws: the pages call
// the same /v1 API as third parties, authenticated by the session cookie. There is no
// untyped fetch helper: every /v1 call goes through studioApi, so its answer has the
// OpenAPI document's type (raw files are fetched by URL, see download-files.ts).

import type { ApiSchema } from "@/lib/client/api-client";

export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    /** The error envelope (empty when the answer was not JSON). */
    readonly body: Partial<ApiSchema<"Error">>,
  ) {
    super(body.message ?? `Request failed with status ${status}`);
  }
}

/** Network failures are retried this many times, with the same Idempotency-Key. */
const RETRIES = 2;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Sends a studio request, again where that is safe: a POST carries an
 * Idempotency-Key, so a network failure is retried with the same key (never
 * charged twice), and a 409 saying that key is still running is asked again
 * shortly. Other methods are sent once.
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
