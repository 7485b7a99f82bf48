import { BlockList, isIP } from 'node:net';
import type { Request } from '@hapi/hapi';

/**
 * How to tell where a request came from, given the reverse proxies to believe (PINGMON_TRUSTED_PROXIES:
 * addresses or CIDR ranges). Without any, or from a peer that is not one of them, it is the peer's address.
 * From a trusted proxy it is the last address of X-Forwarded-For that is not itself a trusted proxy: each proxy
 * appends the address it got the request from, so entries further left were written by the client and prove
 * nothing. An entry that is not an address (`unknown`, a port) ends the walk at the last proxy.
 */
export function clientAddressOf(trustedProxies: readonly string[]): (request: Request) => string {
  if (trustedProxies.length === 0) return (request) => request.info.remoteAddress;
  const isTrusted = trustedCheck(trustedProxies);
  return (request) => {
    let address = request.info.remoteAddress;
    if (!isTrusted(address)) return address;
    // Node joins repeated X-Forwarded-For headers into one, with commas.
    const hops = String(request.headers['x-forwarded-for'] ?? '').split(',');
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = hops[i]!.trim();
      if (isIP(hop) === 0) break;
      address = hop;
      if (!isTrusted(hop)) break;
    }
    return address;
  };
}

/**
 * Whether a request came over HTTPS: directly, by `X-Forwarded-Proto: https` from any peer (it can only make the
 * session cookie Secure, which a client asking for it harms no one with), or by RFC 7239 `Forwarded: proto=https`
 * from a trusted proxy. A chain of proxies lists the client's side first; names and values are case-insensitive.
 */
export function viaHttpsOf(trustedProxies: readonly string[]): (request: Request) => boolean {
  const isTrusted = trustedCheck(trustedProxies);
  return (request) => {
    if (request.server.info.protocol === 'https') return true;
    const forwardedProto = String(request.headers['x-forwarded-proto'] ?? '').split(',')[0]!;
    if (forwardedProto.trim().toLowerCase() === 'https') return true;
    if (!isTrusted(request.info.remoteAddress)) return false;
    const first = String(request.headers.forwarded ?? '').split(',')[0]!;
    return first.split(';').some((pair) => /^\s*proto\s*=\s*"?https"?\s*$/i.test(pair));
  };
}

function trustedCheck(trustedProxies: readonly string[]): (address: string) => boolean {
  const trusted = new BlockList();
  for (const entry of trustedProxies) {
    const [address = '', prefix] = entry.split('/');
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) trusted.addAddress(address, family);
    else trusted.addSubnet(address, Number(prefix), family);
  }
  return (address) => {
    const family = isIP(address);
    return family !== 0 && trusted.check(address, family === 6 ? 'ipv6' : 'ipv4');
  };
}
