import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

type IPv4 = ipaddr.IPv4;
type IPv6 = ipaddr.IPv6;

/** IANA's global unicast space: every other IPv6 address is special-purpose, unallocated or carries an IPv4 one. */
const GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3');
/** RFC 6052's well-known NAT64 prefix, the one of ipaddr.js's 'rfc6052' ranges that always ends in the IPv4. */
const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR('64:ff9b::/96');

/**
 * Whether an IP address (v4 or v6) is one the public internet routes; false for anything not an IP address.
 * IPv4: ipaddr.js's 'unicast', i.e. none of its special ranges (unspecified, private, shared, loopback,
 * link-local where cloud metadata answers, documentation, benchmarking, multicast, reserved, broadcast…).
 * IPv6: an address that carries an IPv4 one is judged by it; any other must be global unicast outside the
 * special ranges (documentation, benchmarking, ORCHID…).
 */
export function isPublicAddress(address: string): boolean {
  // isIP first: ipaddr.js also reads the loose IPv4 forms (0x7f.1), which are no address a socket reports.
  if (isIP(address) === 0 || !ipaddr.isValid(address)) return false;
  const ip = ipaddr.parse(address);
  if (ip instanceof ipaddr.IPv4) return isPublicIPv4(ip);
  const carried = carriedIPv4(ip);
  if (carried !== undefined) return carried !== 'undecidable' && carried.every(isPublicIPv4);
  return ip.match(GLOBAL_UNICAST) && ip.range() === 'unicast';
}

function isPublicIPv4(ip: IPv4): boolean {
  return ip.range() === 'unicast';
}

/**
 * The IPv4 addresses a packet to `ip` reaches, translated or tunnelled, when it has any: a kernel, a NAT64
 * gateway or a relay on the way may deliver it to that IPv4 host (127.0.0.1 included).
 */
function carriedIPv4(ip: IPv6): IPv4[] | 'undecidable' | undefined {
  switch (ip.range()) {
    case 'ipv4Mapped': // ::ffff:a.b.c.d
    case 'rfc6145': // IPv4-translated, ::ffff:0:a.b.c.d
      return [ipv4At(ip, 6)];
    case 'rfc6052': // 64:ff9b::a.b.c.d; the local-use 64:ff9b:1::/48 is split as its network chooses
      return ip.match(NAT64_WELL_KNOWN) ? [ipv4At(ip, 6)] : 'undecidable';
    case '6to4': // 2002:aabb:ccdd::/48
      return [ipv4At(ip, 1)];
    case 'teredo': // 2001:0:<server>:<flags>:<port>:<client XOR ffff:ffff>
      return [ipv4At(ip, 2), ipv4At(ip, 6, 0xffff)];
    default:
      // IPv4-compatible ::a.b.c.d (deprecated, still tunnelled by some kernels); :: and ::1 land here too.
      return ip.parts.slice(0, 6).every((part) => part === 0) ? [ipv4At(ip, 6)] : undefined;
  }
}

/** The IPv4 address in the 16-bit parts `index` and `index + 1` of `ip`, each XORed with `mask`. */
function ipv4At(ip: IPv6, index: number, mask = 0): IPv4 {
  const [high = 0, low = 0] = ip.parts.slice(index, index + 2).map((part) => part ^ mask);
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
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
