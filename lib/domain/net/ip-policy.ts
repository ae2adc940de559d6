import ipaddr from "ipaddr.js";

/**
 * Which addresses the safe fetcher may connect to. The rule is an allow-list, not
 * a deny-list: only what ipaddr.js classifies as public `unicast` passes, so a
 * range we forgot to name (or one assigned later) is refused by default.
 */

// Every IPv6 unicast address handed out today lies in 2000::/3; anything else that
// ipaddr.js still calls "unicast" (e.g. the deprecated IPv4-compatible ::a.b.c.d)
// is unassigned or legacy, so refuse it.
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR("2000::/3");
// The well-known NAT64 prefix carries the IPv4 address in its last 32 bits. The
// local-use prefix 64:ff9b:1::/48 may place it elsewhere, so it stays refused.
const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR("64:ff9b::/96");

export function isForbiddenAddress(ip: string): boolean {
  // Only canonical dotted-quad IPv4 is accepted: odd forms ("0x7f.1", "2130706433")
  // never come from DNS or the WHATWG URL parser, so seeing one here is suspicious.
  if (ipaddr.IPv4.isValidFourPartDecimal(ip)) return !isPublicV4(ipaddr.IPv4.parse(ip));
  const v6 = canonicalV6(ip);
  return v6 === undefined || !isPublicV6(ipaddr.IPv6.parse(v6));
}

/**
 * IPv6 in the WHATWG URL spelling (all hex). ipaddr.js reads a dotted tail such as
 * "::8.8.8.8" as IPv4-mapped, while the OS dials the IPv4-compatible ::808:808;
 * round-tripping through URL makes the policy see what the socket would. Zone ids
 * ("fe80::1%eth0") do not survive the round trip and are refused, as they are
 * only meaningful for link-local addresses.
 */
function canonicalV6(ip: string): string | undefined {
  if (!ipaddr.IPv6.isValid(ip)) return undefined;
  try {
    return new URL(`http://[${ip}]/`).hostname.slice(1, -1);
  } catch {
    return undefined;
  }
}

function isPublicV4(addr: ipaddr.IPv4): boolean {
  return addr.range() === "unicast";
}

function isPublicV6(addr: ipaddr.IPv6): boolean {
  // Translation and tunnelling ranges reach an IPv4 host: judge that host instead.
  const embedded = embeddedIPv4(addr);
  if (embedded) return isPublicV4(embedded);
  return addr.range() === "unicast" && addr.match(GLOBAL_UNICAST_V6);
}

/** The IPv4 address an IPv6 address stands for, when it is one of the translation forms we can unwrap. */
function embeddedIPv4(addr: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const range = addr.range();
  const p = addr.parts;
  const fromWords = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  // ::ffff:a.b.c.d (mapped), ::ffff:0:a.b.c.d (RFC 6145) and 64:ff9b::a.b.c.d (NAT64).
  if (range === "ipv4Mapped" || range === "rfc6145" || addr.match(NAT64_WELL_KNOWN)) {
    return fromWords(p[6]!, p[7]!);
  }
  // 6to4: 2002:AABB:CCDD::/48 routes to the IPv4 host AA.BB.CC.DD.
  if (range === "6to4") return fromWords(p[1]!, p[2]!);
  // Teredo (2001::/32) is left to fall through: its range is not "unicast", so it is refused.
  return undefined;
}
