import { UrlNotAllowedError } from "./errors";
import { type LookupFn, resolvePublicAddresses, systemLookup } from "./resolve-host";

export type CheckUrlOptions = { lookup?: LookupFn };

/**
 * Request-time validation of a caller-supplied URL: refusing here means a 400
 * before anything is queued or charged. It resolves the host once to judge it;
 * safeFetch repeats the check on the address it actually connects to, so a DNS
 * answer that changes in between cannot slip through.
 *
 * Throws UrlNotAllowedError, or FetchFailedError("unreachable") when the host
 * name does not resolve at all.
 */
export async function checkFetchableUrl(raw: string, opts: CheckUrlOptions = {}): Promise<URL> {
  let url: URL;
  try {
    // The WHATWG parser also normalises IPv4 spellings such as 2130706433 or
    // 0x7f.1 to 127.0.0.1, so the policy sees the address that would be dialled.
    url = new URL(raw);
  } catch {
    throw new UrlNotAllowedError("it is not a valid absolute URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new UrlNotAllowedError("only http and https URLs can be fetched");
  }
  // Credentials in URLs end up in logs and job records; ask for a public link instead.
  if (url.username || url.password) {
    throw new UrlNotAllowedError("URLs with a user name or password are not accepted");
  }
  await resolvePublicAddresses(url.hostname, opts.lookup ?? systemLookup);
  return url;
}
