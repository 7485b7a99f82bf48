import { Flags } from '@oclif/core';
import { createClient } from '@pingmon/sdk';
import type { Client } from '@pingmon/sdk';
import { readSettings, resolveSetting } from './settings.js';

/** Flags of every command that talks to the management API. */
export const serverFlags = {
  url: Flags.string({ description: 'pingmon server, e.g. http://127.0.0.1:8080 [env: PINGMON_URL; default: from pingmon login]' }),
};

export class NotLoggedInError extends Error {}

/** A management client with the stored login (or PINGMON_URL / PINGMON_TOKEN). */
export function loggedInClient(flags: { url?: string }): Client {
  const stored = readSettings(process.env);
  const baseUrl = resolveSetting('url', flags.url, process.env, stored);
  const token = resolveSetting('token', undefined, process.env, stored);
  if (!baseUrl || !token) throw new NotLoggedInError('not logged in: run `pingmon login` first');
  return createClient({ baseUrl, token });
}
