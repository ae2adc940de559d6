import { request } from "undici";
import { config } from "@/lib/foundation/config";
import { checkFetchableUrl } from "./check-url";
import { FetchFailedError, UrlNotAllowedError } from "./errors";
import { createPinnedAgent } from "./pinned-agent";
import { type LookupFn, systemLookup } from "./resolve-host";

export type SafeFetchOptions = {
  maxBytes: number;
  /** Whole-fetch budget (connect, headers, every redirect and the body). Defaults to FETCH_TIMEOUT_MS. */
  timeoutMs?: number;
  maxRedirects?: number;
  /** Caller cancellation (e.g. a job being cancelled); its reason is rethrown as is. */
  signal?: AbortSignal;
  /** DNS override, for tests that simulate private or rebinding host names. */
  lookup?: LookupFn;
};

export type SafeFetchResult = {
  bytes: Buffer;
  /** Decided from the file's magic bytes; undefined when the format is unknown. */
  mime: string | undefined;
  ext: string | undefined;
  finalUrl: string;
  /** What the server claimed. Informational only: never trust it for the file type. */
  declaredContentType: string | null;
};

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * The only way the app fetches a caller-supplied URL. Every hop is vetted by the
 * same policy as checkFetchableUrl, the socket is pinned to the vetted address,
 * and size and time are bounded, so a hostile URL cannot reach internal services
 * or tie up a worker.
 */
export async function safeFetch(raw: string, opts: SafeFetchOptions): Promise<SafeFetchResult> {
  const lookup = opts.lookup ?? systemLookup;
  const maxRedirects = opts.maxRedirects ?? 5;
  const timeout = AbortSignal.timeout(opts.timeoutMs ?? config().FETCH_TIMEOUT_MS);
  const signal = opts.signal ? AbortSignal.any([timeout, opts.signal]) : timeout;
  // One agent per fetch: nothing is pooled between callers, and destroying it
  // afterwards closes any socket still open (e.g. after an oversized body).
  const agent = createPinnedAgent(lookup);
  try {
    let url = await checkFetchableUrl(raw, { lookup });
    for (let redirects = 0; ; redirects++) {
      const res = await request(url, {
        method: "GET",
        dispatcher: agent,
        signal,
        // No Accept-Encoding: we want identity bytes so the size cap counts real file bytes.
        headers: { "user-agent": "print-studio-fetcher/1", accept: "*/*" },
      });
      const declaredContentType = headerValue(res.headers["content-type"]) ?? null;

      if (REDIRECTS.has(res.statusCode)) {
        discard(res.body);
        const location = headerValue(res.headers.location);
        if (!location) throw FetchFailedError.httpStatus(res.statusCode);
        if (redirects >= maxRedirects) {
          throw new FetchFailedError("too_many_redirects", `The source URL redirected more than ${maxRedirects} times.`);
        }
        url = await checkFetchableUrl(new URL(location, url).href, { lookup });
        continue;
      }
      if (res.statusCode < 200 || res.statusCode > 299) {
        discard(res.body);
        throw FetchFailedError.httpStatus(res.statusCode);
      }

      const declaredLength = Number(headerValue(res.headers["content-length"]));
      if (declaredLength > opts.maxBytes) {
        discard(res.body);
        throw FetchFailedError.tooLarge(opts.maxBytes);
      }
      const bytes = await readCapped(res.body, opts.maxBytes);
      if (bytes.length === 0) throw new FetchFailedError("empty", "The source URL returned an empty file.");

      const { fileTypeFromBuffer } = await import("file-type");
      const type = await fileTypeFromBuffer(bytes);
      return { bytes, mime: type?.mime, ext: type?.ext, finalUrl: url.href, declaredContentType };
    }
  } catch (err) {
    throw translate(err, timeout, opts.signal);
  } finally {
    await agent.destroy().catch(() => {});
  }
}

/** Reads the body until it ends, aborting the transfer as soon as it passes `maxBytes`. */
type Body = AsyncIterable<Buffer> & NodeJS.EventEmitter & { destroy(): void };

async function readCapped(body: Body, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body) {
    total += chunk.length;
    if (total > maxBytes) {
      discard(body);
      throw FetchFailedError.tooLarge(maxBytes);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, total);
}

/**
 * Drops a body we will not read. Destroying it makes undici close the socket
 * (rather than drain an unknown amount of data); the AbortError it then emits is
 * expected, so swallow it instead of letting it become an uncaught exception.
 */
function discard(body: Body): void {
  body.on("error", () => {});
  body.destroy();
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Our own errors pass through; timeouts and network failures become user-readable FetchFailedErrors. */
function translate(err: unknown, timeout: AbortSignal, callerSignal: AbortSignal | undefined): unknown {
  const ours = findOwnError(err);
  if (ours) return ours;
  if (callerSignal?.aborted) return callerSignal.reason ?? err;
  if (timeout.aborted) return new FetchFailedError("timeout", "The source URL took too long to respond.");
  const code = (err as { code?: unknown } | null)?.code;
  const suffix = typeof code === "string" ? ` (${code})` : "";
  return new FetchFailedError("unreachable", `The source URL could not be reached${suffix}.`);
}

/** undici may wrap errors raised inside our connect lookup; look through `cause`. */
function findOwnError(err: unknown): UrlNotAllowedError | FetchFailedError | undefined {
  for (let e = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof UrlNotAllowedError || e instanceof FetchFailedError) return e;
  }
  return undefined;
}
