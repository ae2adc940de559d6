import dns from "node:dns/promises";
import net from "node:net";
import { config } from "@/lib/foundation/config";
import { FetchFailedError, UrlNotAllowedError } from "./errors";
import { isForbiddenAddress } from "./ip-policy";

/**
 * Host name -> checked addresses. Shared by the request-time URL check and by the
 * connection pinning in safe-fetch, so both apply exactly the same rule.
 */

export type ResolvedAddress = { address: string; family: 4 | 6 };

/** Resolves a host name to every address it has. Injectable so tests can fake DNS. */
export type LookupFn = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemLookup: LookupFn = async (hostname) => {
  const found = await dns.lookup(hostname, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/** URL hostnames wrap IPv6 literals in brackets; DNS and ipaddr.js want them bare. */
export function bareHost(hostname: string): string {
  return hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
}

/** FETCH_ALLOW_HOSTS: development escape hatch for hosts on private addresses (e.g. a local test server). */
export function isAllowListedHost(hostname: string): boolean {
  const host = normaliseHost(hostname);
  return config()
    .FETCH_ALLOW_HOSTS.split(",")
    .map((entry) => entry.trim())
    .filter(Boolean)
    .some((entry) => normaliseHost(entry) === host);
}

function normaliseHost(host: string): string {
  const bare = bareHost(host.trim().toLowerCase()).replace(/\.$/, "");
  // "0:0::1" and "::1" are the same host; compare IPv6 literals in one spelling.
  return net.isIPv6(bare) ? new URL(`http://[${bare}]`).hostname : bare;
}

/**
 * Every address of `hostname`, refusing the host when any of them is not public.
 * One bad record is enough: the OS may pick any of them when connecting.
 */
export async function resolvePublicAddresses(hostname: string, lookup: LookupFn): Promise<ResolvedAddress[]> {
  const host = bareHost(hostname);
  const allowListed = isAllowListedHost(host);
  const family = net.isIP(host);
  if (family) {
    if (!allowListed && isForbiddenAddress(host)) throw privateAddress();
    return [{ address: host, family: family === 6 ? 6 : 4 }];
  }

  // "localhost" and *.localhost are loopback by definition (RFC 6761), whatever DNS says.
  if (!allowListed && /(^|\.)localhost\.?$/i.test(host)) throw privateAddress();

  let addresses: ResolvedAddress[];
  try {
    addresses = await lookup(host);
  } catch {
    throw new FetchFailedError("unreachable", `The host name ${host} could not be resolved.`);
  }
  if (addresses.length === 0) {
    throw new FetchFailedError("unreachable", `The host name ${host} could not be resolved.`);
  }
  if (!allowListed && addresses.some((a) => isForbiddenAddress(a.address))) throw privateAddress();
  return addresses;
}

const privateAddress = () => new UrlNotAllowedError("it points to a private, local or reserved network address");
