import type { LookupAddress, LookupOptions } from "node:dns";
import { Agent } from "undici";
import { type LookupFn, resolvePublicAddresses } from "./resolve-host";

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * An undici Agent whose sockets can only reach addresses that passed the policy.
 * Node calls `lookup` while opening the socket and dials exactly what it returns,
 * so the address we check is the address we connect to: there is no gap between
 * "check" and "connect" for a rebinding DNS server to exploit. (IP-literal hosts
 * skip lookup in Node; checkFetchableUrl vets those before every request.)
 */
export function createPinnedAgent(lookup: LookupFn): Agent {
  const pinnedLookup = (hostname: string, options: LookupOptions, callback: LookupCallback) => {
    resolvePublicAddresses(hostname, lookup).then(
      (addresses) => {
        const wanted = options.family === 4 || options.family === 6 ? options.family : undefined;
        const usable = wanted ? addresses.filter((a) => a.family === wanted) : addresses;
        const first = usable[0];
        if (!first) return callback(Object.assign(new Error(`No IPv${wanted} address for ${hostname}`), { code: "ENOTFOUND" }), "");
        // With autoSelectFamily Node asks for every address (all: true); all of them were checked.
        if (options.all) callback(null, usable);
        else callback(null, first.address, first.family);
      },
      (err: Error) => callback(err, ""),
    );
  };
  return new Agent({ connect: { lookup: pinnedLookup } });
}
