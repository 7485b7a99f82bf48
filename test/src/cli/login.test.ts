import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { ApiKey } from '@pingmon/sdk';
import t from 'tap';
import type { Test } from 'tap';
import { tempDir } from '../helpers/databases.js';
import { CLI } from '../helpers/cli.js';
import { TestServer } from '../helpers/server.js';
import type { TestAccount } from '../helpers/server.js';
import { requireTools } from '../helpers/system-tools.js';
import { EXITED, Tmux } from '../helpers/tmux.js';

// `pingmon login` in a real terminal (tmux): what is asked, what is echoed, what is stored. tmux shows no
// trailing spaces: a prompt is waited for without its own.

t.test('pingmon login in a terminal asks for the email and the password, and never shows the password', async (t) => {
  if (!requireTools(t, 'tmux')) return;
  const api = await TestServer.start(t, 'sqlite');
  const account = await api.account('unlimited');
  const configHome = tempDir('pingmon-config-');
  const env = { XDG_CONFIG_HOME: configHome };
  const term = Tmux.start(t, [process.execPath, CLI, 'login', '--url', api.url], { columns: 100, rows: 24, env });
  await term.waitFor('Email:');
  term.type(`  ${account.email} `);
  term.keys('Enter');
  await term.waitFor('Password:');
  // A typo, taken back: the line is edited as in any prompt.
  term.type(`${account.password}x`);
  term.keys('BSpace', 'Enter');
  // No API key stored yet: it offers one for pingmon run. Not now.
  await term.waitFor('Your choice [p/c/n]:');
  term.keys('n', 'Enter');
  const screen = await term.waitFor(EXITED);
  t.equal(EXITED.exec(screen)![1], '0', screen);
  const email = account.email.replace(/\./g, '\\.');
  t.match(screen, new RegExp(`Email: {3}${email} *\nPassword: *\nLogged in as ${email}`));
  t.notMatch(screen, /correct|horse|battery/, 'nothing of the password is shown');
  t.match(screen, 'pingmon run needs an API key: `pingmon config set api-key pm_…`');
  const file = join(configHome, 'pingmon', 'config.json');
  const stored = JSON.parse(readFileSync(file, 'utf8')) as { url: string; token: string; apiKey?: string };
  t.equal(stored.url, api.url);
  t.match(stored.token, /^eyJ/);
  t.equal(stored.apiKey, undefined, 'no key stored');
});

/** `pingmon login` in a terminal, up to its offer of an API key for pingmon run. */
async function loginTerminal(t: Test, api: TestServer, account: TestAccount, configHome: string) {
  const env = { XDG_CONFIG_HOME: configHome, PINGMON_PASSWORD: account.password };
  const argv = [process.execPath, CLI, 'login', '--url', api.url, '--email', account.email];
  const term = Tmux.start(t, argv, { columns: 120, rows: 30, env });
  await term.waitFor('Your choice [p/c/n]:');
  return term;
}

t.test(
  'pingmon login stores a pasted API key for pingmon run, hidden, once the account is seen to have it',
  async (t) => {
    if (!requireTools(t, 'tmux')) return;
    const api = await TestServer.start(t, 'sqlite');
    const account = await api.account('unlimited');
    const configHome = tempDir('pingmon-config-');
    const term = await loginTerminal(t, api, account, configHome);
    t.match(term.capture(), 'pingmon run reports your jobs with an API key, read from this file. Store one?');
    term.keys('p', 'Enter');
    await term.waitFor('API key (hidden; empty: none):');
    // One of another account, then the right one.
    const other = await api.account('unlimited');
    term.type(other.apiKey);
    term.keys('Enter');
    await term.waitFor('that is not an active API key of this account (`pingmon keys list` shows them)');
    term.type(account.apiKey);
    term.keys('Enter');
    const screen = await term.waitFor(EXITED);
    t.equal(EXITED.exec(screen)![1], '0', screen);
    t.notMatch(screen, account.apiKey, 'the key is not shown');
    t.notMatch(screen, other.apiKey);
    t.match(
      screen,
      `API key ${account.apiKey.slice(0, 10)}… stored for pingmon run: a crontab line needs only --monitor.`,
    );
    const stored = JSON.parse(readFileSync(join(configHome, 'pingmon', 'config.json'), 'utf8')) as { apiKey?: string };
    t.equal(stored.apiKey, account.apiKey);
  },
);

t.test("pingmon login creates a ping-only API key on the user's word, and stores it", async (t) => {
  if (!requireTools(t, 'tmux')) return;
  const api = await TestServer.start(t, 'sqlite');
  const account = await api.account('unlimited');
  const configHome = tempDir('pingmon-config-');
  const term = await loginTerminal(t, api, account, configHome);
  term.keys('c', 'Enter');
  const screen = await term.waitFor(EXITED);
  t.equal(EXITED.exec(screen)![1], '0', screen);
  const keys = (await api.request('/api-keys', { token: account.token })).body.apiKeys as ApiKey[];
  const made = keys.find((k) => k.name === `pingmon run on ${hostname()}`);
  t.ok(made, 'a key named for the host');
  t.match(screen, `Created the ping-only API key ${made?.keyId} (pingmon run on ${hostname()}).`);
  const stored = JSON.parse(readFileSync(join(configHome, 'pingmon', 'config.json'), 'utf8')) as { apiKey: string };
  t.equal(stored.apiKey.slice(0, 10), made?.prefix, 'the new key is stored');
  // The key stored is one the server takes.
  const monitorId = await api.monitor(account, 'job');
  const ping = await api.request(`/ping/${monitorId}/start`, { method: 'POST', apiKey: stored.apiKey });
  t.equal(ping.status, 200);
});

t.test('pingmon login asks for the server when none is known, and Ctrl-C at the password stores nothing', async (t) => {
  if (!requireTools(t, 'tmux')) return;
  const configHome = tempDir('pingmon-config-');
  const env = { XDG_CONFIG_HOME: configHome };
  const term = Tmux.start(t, [process.execPath, CLI, 'login'], { columns: 100, rows: 24, env });
  await term.waitFor('Server URL (e.g. http://127.0.0.1:8080):');
  term.type('http://127.0.0.1:1');
  term.keys('Enter');
  await term.waitFor('Email:');
  term.type('ops@example.com');
  term.keys('Enter');
  await term.waitFor('Password:');
  term.type('secret');
  term.keys('C-c');
  const screen = await term.waitFor(EXITED);
  t.equal(EXITED.exec(screen)![1], '130', 'Ctrl-C ends it as a shell would: 130');
  t.notMatch(screen, /secret/);
  t.throws(() => readFileSync(join(configHome, 'pingmon', 'config.json')), { code: 'ENOENT' }, 'nothing stored');
});
