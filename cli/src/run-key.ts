import { hostname } from 'node:os';
import type { ApiKey, Client } from '@pingmon/sdk';
import { isAccessRefusal } from '@pingmon/sdk';
import { listAllApiKeys } from './client.js';

// The API key `pingmon run` reads from the config file, as `pingmon login` offers to store it: a key the user has,
// or a new ping-only one made on their word (docs/cli.md#pingmon-login).

/** What the user of a terminal is asked, and how they answer. */
export interface Dialog {
  ask(question: string, hidden?: boolean): Promise<string>;
  log(line: string): void;
}

export const OFFER = [
  'pingmon run reports your jobs with an API key, read from this file. Store one?',
  '  p  paste an API key you have (pm_…)',
  '  c  create a ping-only key for this host',
  '  n  not now',
];

/** Asks which key to store; answers it, or undefined for none. */
export async function chooseRunKey(client: Client, dialog: Dialog): Promise<string | undefined> {
  for (const line of OFFER) dialog.log(line);
  for (;;) {
    const choice = (await dialog.ask('Your choice [p/c/n]: ')).toLowerCase();
    if (choice === 'n' || choice === '') return undefined;
    if (choice === 'c') return (await createRunKey(client, dialog.log)).key;
    if (choice === 'p') return pastedKey(client, dialog);
  }
}

async function pastedKey(client: Client, dialog: Dialog): Promise<string | undefined> {
  for (;;) {
    const key = (await dialog.ask('API key (hidden; empty: none): ', true)).trim();
    if (key === '') return undefined;
    const wrong = await wrongKey(client, key);
    if (!wrong) return key;
    dialog.log(wrong);
  }
}

/** Why `key` would not report runs to this account, or undefined: its form, then the account's active ping keys. */
export async function wrongKey(client: Client, key: string): Promise<string | undefined> {
  if (!/^pm_[\w-]+$/.test(key)) return 'an API key starts with pm_ (`pingmon keys create` makes one)';
  let keys: ApiKey[];
  try {
    keys = await listAllApiKeys(client);
  } catch (err) {
    // Only admins and owners list keys: a member's key is taken as given, and its first ping tells.
    if (isAccessRefusal(err)) return undefined;
    throw err;
  }
  const found = keys.find((k) => k.revokedAt === null && key.startsWith(k.prefix));
  if (!found) return 'that is not an active API key of this account (`pingmon keys list` shows them)';
  if (found.scope !== 'ping')
    return `that is a ${found.scope} key, which does not ping: pingmon run needs a ping key (\`pingmon keys create\`)`;
  return undefined;
}

/** A new ping-only key, named after this host, so that `pingmon keys list` says where it lives. */
export async function createRunKey(client: Client, log: (line: string) => void): Promise<{ key: string }> {
  const name = `pingmon run on ${hostname()}`.slice(0, 100);
  const created = await client.createApiKey({ name, provision: false });
  log(`Created the ping-only API key ${created.keyId} (${created.name}).`);
  return created;
}
