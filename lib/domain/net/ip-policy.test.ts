import { describe, expect, it } from "vitest";
import { isForbiddenAddress } from "./ip-policy";

const forbidden: [string, string][] = [
  ["127.0.0.1", "loopback"],
  ["127.255.255.254", "loopback /8"],
  ["10.0.0.5", "private 10/8"],
  ["172.16.0.1", "private 172.16/12"],
  ["172.31.255.255", "private 172.16/12 end"],
  ["192.168.1.1", "private 192.168/16"],
  ["169.254.169.254", "cloud metadata"],
  ["169.254.1.1", "link-local"],
  ["100.64.0.1", "CGNAT"],
  ["100.100.100.200", "CGNAT (Alibaba metadata)"],
  ["0.0.0.0", "unspecified"],
  ["0.1.2.3", "this network 0/8"],
  ["255.255.255.255", "broadcast"],
  ["224.0.0.1", "multicast"],
  ["239.255.255.250", "multicast SSDP"],
  ["240.0.0.1", "reserved 240/4"],
  ["192.0.0.8", "IETF protocol assignments 192.0.0/24"],
  ["192.0.2.1", "documentation TEST-NET-1"],
  ["198.51.100.7", "documentation TEST-NET-2"],
  ["203.0.113.9", "documentation TEST-NET-3"],
  ["198.18.0.1", "benchmarking 198.18/15"],
  ["198.19.255.1", "benchmarking 198.18/15 end"],
  ["::", "IPv6 unspecified"],
  ["::1", "IPv6 loopback"],
  ["fe80::1", "IPv6 link-local"],
  ["fe80::1%eth0", "IPv6 link-local with zone"],
  ["fc00::1", "unique local"],
  ["fd12:3456::1", "unique local fd"],
  ["fd00:ec2::254", "AWS IPv6 metadata"],
  ["ff02::1", "IPv6 multicast"],
  ["fec0::1", "deprecated site-local"],
  ["2001:db8::1", "IPv6 documentation"],
  ["::ffff:127.0.0.1", "IPv4-mapped loopback (dotted)"],
  ["::ffff:7f00:1", "IPv4-mapped loopback (hex)"],
  ["::ffff:10.0.0.1", "IPv4-mapped private"],
  ["::ffff:169.254.169.254", "IPv4-mapped metadata"],
  ["::ffff:0:7f00:1", "RFC 6145 translated loopback"],
  ["::127.0.0.1", "IPv4-compatible loopback"],
  ["::7f00:1", "IPv4-compatible loopback (hex)"],
  ["::8.8.8.8", "IPv4-compatible (deprecated) even if public"],
  ["64:ff9b::7f00:1", "NAT64 loopback"],
  ["64:ff9b::10.0.0.1", "NAT64 private"],
  ["64:ff9b::a9fe:a9fe", "NAT64 metadata"],
  ["64:ff9b:1::808:808", "NAT64 local-use prefix"],
  ["2002:7f00:1::", "6to4 embedding loopback"],
  ["2002:a00:1::1", "6to4 embedding 10.0.0.1"],
  ["2002:a9fe:a9fe::1", "6to4 embedding metadata"],
  ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "Teredo"],
  ["100::1", "discard prefix"],
  ["5f00::1", "segment routing"],
  ["4000::1", "outside 2000::/3"],
  ["not-an-ip", "garbage"],
  ["", "empty string"],
  ["2130706433", "decimal IPv4 spelling"],
  ["0x7f.1", "hex IPv4 spelling"],
  ["0177.0.0.1", "octal IPv4 spelling"],
  ["1.2.3.4.5", "five parts"],
  ["256.1.1.1", "octet out of range"],
  ["[::1]", "bracketed (URL form, not an address)"],
];

const allowed: [string, string][] = [
  ["8.8.8.8", "Google DNS"],
  ["1.1.1.1", "Cloudflare DNS"],
  ["93.184.216.34", "example.com"],
  ["172.15.255.255", "just below 172.16/12"],
  ["172.32.0.1", "just above 172.16/12"],
  ["100.63.255.255", "just below CGNAT"],
  ["2606:4700::1111", "Cloudflare IPv6"],
  ["2001:4860:4860::8888", "Google IPv6"],
  ["::ffff:8.8.8.8", "IPv4-mapped public"],
  ["64:ff9b::808:808", "NAT64 public"],
  ["2002:808:808::1", "6to4 embedding public"],
];

describe("isForbiddenAddress", () => {
  it.each(forbidden)("forbids %s (%s)", (ip) => {
    expect(isForbiddenAddress(ip)).toBe(true);
  });
  it.each(allowed)("allows %s (%s)", (ip) => {
    expect(isForbiddenAddress(ip)).toBe(false);
  });
});
