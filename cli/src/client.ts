import { Flags } from '@oclif/core';
import { createClient } from '@pingmon/sdk';
import type { ApiKey, Client, ClientOptions, Monitor, PageQuery } from '@pingmon/sdk';
import { readSettings, resolveSetting, resolveUrl } from './settings.js';

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
  const baseUrl = resolveUrl(flags.url, stored);
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

/** Items asked for per page when a command wants them all. */
const PAGE = 200;

/** Every item of a paged list, page after page. */
async function listAll<T>(
  read: (query: PageQuery) => Promise<{ nextCursor: string | null; items: T[] }>,
): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await read({ limit: PAGE, cursor });
    items.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return items;
}

/** Every monitor of the account. */
export function listAllMonitors(client: Client): Promise<Monitor[]> {
  return listAll(async (query) => {
    const page = await client.listMonitors(query);
    return { items: page.monitors, nextCursor: page.nextCursor };
  });
}

/** Every API key of the account, revoked ones included. */
export function listAllApiKeys(client: Client): Promise<ApiKey[]> {
  return listAll(async (query) => {
    const page = await client.listApiKeys(query);
    return { items: page.apiKeys, nextCursor: page.nextCursor };
  });
}

function sameOrigin(a: string, b: string): boolean {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return a === b;
  }
}
