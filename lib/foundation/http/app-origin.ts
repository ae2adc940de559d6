import { config } from "@/lib/foundation/config";
import { currentRequestOrigin } from "./request-context";

/**
 * Absolute origin for links we hand out (signed file URLs, top_up_url, list links):
 * APP_URL, else the origin of the request being served (so a client that called
 * http://studio.lan:3000 gets links it can follow), else (no request at hand: jobs,
 * the CLI) a Vercel deployment's own URL or localhost.
 */
export function appOrigin(requestOrigin: string | undefined = currentRequestOrigin()): string {
  const { APP_URL, PORT } = config();
  if (APP_URL) return APP_URL.replace(/\/$/, "");
  if (requestOrigin) return requestOrigin;
  return vercelOrigin() ?? `http://localhost:${PORT}`;
}

/** The public origin on Vercel when APP_URL is unset: the deployment's own URL (each preview has one). */
export function vercelOrigin(env: { VERCEL_BRANCH_URL?: string; VERCEL_URL?: string } = config()): string | undefined {
  const host = env.VERCEL_BRANCH_URL || env.VERCEL_URL;
  return host ? `https://${host}` : undefined;
}
