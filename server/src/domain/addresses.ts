import { BlockList, isIP } from 'node:net';

/**
 * Addresses that are not on the public internet: unspecified, loopback, private, shared (CGNAT), link-local
 * (cloud metadata services live there), multicast and reserved ranges. IPv4-mapped IPv6 addresses
 * (::ffff:127.0.0.1) are checked against the IPv4 ranges by BlockList itself. Built once: a fixed table.
 */
const NOT_PUBLIC = new BlockList();
const RANGES: ReadonlyArray<[string, number, 'ipv4' | 'ipv6']> = [
  ['0.0.0.0', 8, 'ipv4'],
  ['10.0.0.0', 8, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'],
  ['127.0.0.0', 8, 'ipv4'],
  ['169.254.0.0', 16, 'ipv4'],
  ['172.16.0.0', 12, 'ipv4'],
  ['192.0.0.0', 24, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['198.18.0.0', 15, 'ipv4'],
  ['224.0.0.0', 4, 'ipv4'],
  ['240.0.0.0', 4, 'ipv4'],
  // IPv4-compatible (deprecated), with :: (unspecified) and ::1 (loopback) in it.
  ['::', 96, 'ipv6'],
  ['fc00::', 7, 'ipv6'],
  ['fe80::', 10, 'ipv6'],
  ['fec0::', 10, 'ipv6'],
  ['ff00::', 8, 'ipv6'],
];
for (const [network, prefix, family] of RANGES) NOT_PUBLIC.addSubnet(network, prefix, family);

/** Whether an IP address (v4 or v6) is one the public internet routes; false for anything not an IP address. */
export function isPublicAddress(address: string): boolean {
  const version = isIP(address);
  if (version === 0) return false;
  return !NOT_PUBLIC.check(address, version === 4 ? 'ipv4' : 'ipv6');
}

/** The host of `url` when it is an IP address outside the public ranges (a name is not resolved here). */
export function nonPublicAddressIn(url: string): string | undefined {
  const host = hostOf(url);
  // WHATWG URL has already turned 0x7f.1 or 2130706433 into 127.0.0.1; IPv6 comes in brackets.
  const address = host?.startsWith('[') ? host.slice(1, -1) : host;
  return address !== undefined && isIP(address) !== 0 && !isPublicAddress(address) ? address : undefined;
}

/**
 * The host of `url` when it is plainly not public: an IP address outside the public ranges, or a localhost
 * name (RFC 6761). Other names pass here: what they resolve to can change, so it is checked when connecting.
 */
export function nonPublicHostOf(url: string): string | undefined {
  const host = hostOf(url);
  return nonPublicAddressIn(url) ?? (host !== undefined && /(^|\.)localhost\.?$/i.test(host) ? host : undefined);
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname;
  } catch {
    return undefined;
  }
}
