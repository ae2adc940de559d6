import { request } from "undici";
import { Webhook } from "standardwebhooks";
import { checkFetchableUrl, FetchFailedError, UrlNotAllowedError } from "@/lib/domain/net";
import { createPinnedAgent } from "@/lib/domain/net/pinned-agent";
import { systemLookup, type LookupFn } from "@/lib/domain/net/resolve-host";

const SNIPPET_CHARS = 500;
const READ_CAP_BYTES = 16 * 1024;

export type SendResult = { statusCode: number | null; durationMs: number; snippet: string | null; error: string | null; ok: boolean };

/**
 * One signed POST (Standard Webhooks: `webhook-id`, `webhook-timestamp`,
 * `webhook-signature`, signed with the `standardwebhooks` library). Through the
 * same guards as the safe fetcher: the URL is vetted again now, and the socket is
 * pinned to an address that passed the policy, so an endpoint whose name later
 * points at a private address is refused at delivery. Redirects are not
 * followed (a 3xx is a failed attempt), the answer is read up to 16 KiB.
 */
export async function sendSigned(input: {
  url: string;
  secret: string;
  messageId: string;
  body: string;
  timeoutMs: number;
  at?: Date;
  lookup?: LookupFn;
}): Promise<SendResult> {
  const started = performance.now();
  const at = input.at ?? new Date();
  const headers = {
    "content-type": "application/json",
    "user-agent": "print-studio-webhooks/1",
    "webhook-id": input.messageId,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": new Webhook(input.secret).sign(input.messageId, at, input.body),
  };
  const lookup = input.lookup ?? systemLookup;
  const agent = createPinnedAgent(lookup);
  const signal = AbortSignal.timeout(input.timeoutMs);
  const took = () => Math.round(performance.now() - started);
  try {
    const url = await checkFetchableUrl(input.url, { lookup });
    const res = await request(url, { method: "POST", dispatcher: agent, signal, headers, body: input.body });
    const snippet = await readSnippet(res.body);
    const ok = res.statusCode >= 200 && res.statusCode <= 299;
    return { statusCode: res.statusCode, durationMs: took(), snippet, error: ok ? null : `The endpoint answered ${res.statusCode}.`, ok };
  } catch (err) {
    return { statusCode: null, durationMs: took(), snippet: null, error: describe(err, signal), ok: false };
  } finally {
    await agent.destroy().catch(() => {});
  }
}

type Body = AsyncIterable<Buffer> & NodeJS.EventEmitter & { destroy(): void };

async function readSnippet(body: Body): Promise<string | null> {
  const chunks: Buffer[] = [];
  let total = 0;
  body.on("error", () => {});
  for await (const chunk of body) {
    chunks.push(chunk);
    total += chunk.length;
    if (total >= READ_CAP_BYTES) {
      body.destroy();
      break;
    }
  }
  const text = Buffer.concat(chunks).toString("utf8").slice(0, SNIPPET_CHARS);
  return text.length ? text : null;
}

function describe(err: unknown, timeout: AbortSignal): string {
  for (let e = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof UrlNotAllowedError) return `Refused: ${e.message}`;
    if (e instanceof FetchFailedError) return e.message;
  }
  if (timeout.aborted) return "No answer within the time limit.";
  const code = (err as { code?: unknown } | null)?.code;
  return `The endpoint could not be reached${typeof code === "string" ? ` (${code})` : ""}.`;
}
