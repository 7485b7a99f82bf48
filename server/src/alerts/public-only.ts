import { lookup } from 'node:dns';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { Agent } from 'undici';
import { isPublicAddress } from '../domain/addresses.js';

/** A channel's host resolved to an address the server may not send to (PINGMON_CHANNELS_PUBLIC_ONLY). */
export class NotPublicAddressError extends Error {
  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(
      `${host} is ${address === host ? 'a' : `${address}, a`} private, loopback or otherwise non-public address, ` +
        'and this server only sends alerts to public ones (PINGMON_CHANNELS_PUBLIC_ONLY)',
    );
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * The connection's own DNS lookup, checked: every address a name resolves to must be public. Checking the
 * addresses the socket then connects to, rather than resolving the name a second time beforehand, leaves a
 * name no way to answer one thing to the check and another to the connection (DNS rebinding).
 */
function publicLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    const refused = addresses.find((a) => !isPublicAddress(a.address));
    if (refused) return callback(new NotPublicAddressError(hostname, refused.address), []);
    // net asks for one address or for all of them (when it tries both families), and takes what it asked for.
    const [first] = addresses;
    if (options.all || !first) return callback(null, addresses);
    return callback(null, first.address, first.family);
  });
}

/**
 * A connection pool whose every connection goes through the checked lookup, for one attempt: made per
 * attempt and destroyed after it, so nothing outlives the request (alerts are few; a fresh connection each
 * is cheap next to a kept pool's lifecycle).
 */
export function publicOnlyDispatcher(): Agent {
  return new Agent({ connect: { lookup: publicLookup } });
}
