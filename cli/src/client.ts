import { Flags } from '@oclif/core';
import { createClient } from '@pingmon/sdk';
import type { Client, ClientOptions, Monitor } from '@pingmon/sdk';
import { readSettings, resolveSetting } from './settings.js';

/** Flags of every command that talks to the management API. */
export const serverFlags = {
  url: Flags.string({
    description: 'pingmon server, e.g. http://127.0.0.1:8080 [env: PINGMON_URL; default: from pingmon login]',
  }),
};

export class NotLoggedInError extends Error {}

/** A management client with the stored login (or PINGMON_URL / PINGMON_TOKEN); `timing` for slow or eager calls. */
export function loggedInClient(
  flags: { url?: string },
  timing: Pick<ClientOptions, 'timeoutMs' | 'retryBudgetMs' | 'maxRetries'> = {},
): Client {
  const stored = readSettings();
  const baseUrl = resolveSetting('url', flags.url, stored);
  // The stored token belongs to the stored server: it is never sent to another one.
  const sameServer = !stored.url || !baseUrl || sameOrigin(stored.url, baseUrl);
  const token = resolveSetting('token', undefined, sameServer ? stored : {});
  if (!baseUrl || !token)
    throw new NotLoggedInError(
      `not logged in${sameServer ? '' : ` to ${baseUrl}`}: ` +
        `run \`pingmon login${sameServer ? '' : ` --url ${baseUrl}`}\` first`,
    );
  return createClient({ baseUrl, token, ...timing });
}

/** Monitors asked for per page when every monitor is wanted. */
const MONITORS_PAGE = 200;

/** Every monitor of the account, page after page. */
export async function listAllMonitors(client: Client): Promise<Monitor[]> {
  const monitors: Monitor[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listMonitors({ limit: MONITORS_PAGE, cursor });
    monitors.push(...page.monitors);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return monitors;
}

function sameOrigin(a: string, b: string): boolean {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return a === b;
  }
}
