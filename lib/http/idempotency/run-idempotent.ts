import type { Db } from "@/lib/foundation/db/types";
import { config } from "@/lib/foundation/config";
import { ApiError } from "@/lib/foundation/http/api-error";
import { errorResponse } from "@/lib/http/error-response";
import { readCappedBody } from "@/lib/foundation/http/read-capped-body";
import { runWithIdempotencyClaim, type IdempotencyClaim } from "@/lib/foundation/http/idempotency-context";
import { requestFingerprint } from "./fingerprint";
import { idempotencyKeyOf, REPLAYED_HEADER } from "./key-header";
import { claimIdempotencyKey, completeIdempotencyKey, releaseIdempotencyKey } from "./store";

/** Headers of the first answer that a replay repeats (request id and rate limit headers are the replay's own). */
const REPLAYED_HEADERS = ["content-type", "location", "content-location", "link"];

export type IdempotentRequest = { req: Request; scope: string; key: string; fingerprint: string; method: string; path: string };

/** The largest body any /v1 POST accepts: a body with a key is read whole to be hashed. */
function maxBodyBytes(): number {
  const c = config();
  return Math.max(c.MAX_JSON_BYTES, c.MAX_PDF_BYTES, 4 * c.MAX_IMAGE_BYTES) + 64 * 1024;
}

/**
 * When the request carries an Idempotency-Key (and the caller has a scope: an
 * account): checks the key, reads the body once to fingerprint it, and returns
 * a copy of the request with the same bytes for the handler to parse.
 * Undefined when there is no key.
 */
export async function prepareIdempotentRequest(req: Request, scope: string | null): Promise<IdempotentRequest | undefined> {
  if (scope === null) return undefined;
  const key = idempotencyKeyOf(req);
  if (key === undefined) return undefined;
  const max = maxBodyBytes();
  const body = await readCappedBody(req, max, () => new ApiError(413, "PAYLOAD_TOO_LARGE", `The body is larger than the ${max}-byte limit.`, { max_bytes: max }));
  const copy = new Request(req.url, { method: req.method, headers: req.headers, body: body.length ? new Uint8Array(body) : undefined, signal: req.signal });
  const url = new URL(req.url);
  return {
    req: copy,
    scope,
    key,
    fingerprint: requestFingerprint(req.method, req.url, req.headers.get("content-type"), body),
    method: req.method,
    path: url.pathname,
  };
}

/**
 * Runs the handler at most once per key: the first request runs it and its
 * answer is stored; a repeat (same fingerprint, within 24 h) gets that answer
 * again with `Idempotent-Replayed: true` and runs nothing. Answers under 500
 * are stored; a 5xx is stored only when something was charged under the key
 * (otherwise the key is freed so a retry runs again).
 */
export async function runIdempotent(db: Db, ir: IdempotentRequest, requestId: string, run: () => Promise<Response>): Promise<Response> {
  const claimed = await claimIdempotencyKey(db, { scope: ir.scope, key: ir.key, fingerprint: ir.fingerprint, method: ir.method, path: ir.path }, config().IDEMPOTENCY_WAIT_SECONDS * 1000, requestId);
  if (claimed.kind === "replay") {
    const { row } = claimed;
    const headers = new Headers(row.responseHeaders ?? {});
    headers.set(REPLAYED_HEADER, "true");
    return new Response(row.responseStatus === 204 ? null : Buffer.from(row.responseBody ?? "", "base64"), { status: row.responseStatus ?? 500, headers });
  }
  const claim: IdempotencyClaim = { id: claimed.id, owner: claimed.owner, active: true, charged: false };
  let res: Response;
  try {
    res = await runWithIdempotencyClaim(claim, run);
  } catch (err) {
    res = errorResponse(err, requestId);
  } finally {
    claim.active = false;
  }
  try {
    if (res.status >= 500 && !claim.charged) {
      await releaseIdempotencyKey(db, claim);
    } else {
      const body = Buffer.from(await res.clone().arrayBuffer());
      const headers: Record<string, string> = {};
      for (const name of REPLAYED_HEADERS) {
        const v = res.headers.get(name);
        if (v !== null) headers[name] = v;
      }
      await completeIdempotencyKey(db, claim, { status: res.status, headers, body });
    }
  } catch (err) {
    // The answer still goes out; the key stays running until its lease lapses.
    console.error(`[${requestId}] could not store the Idempotency-Key answer`, err);
  }
  return res;
}
