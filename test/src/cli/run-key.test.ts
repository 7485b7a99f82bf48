import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import t from 'tap';
import { CLI, finished, pingmon } from '../helpers/cli.js';
import { tempDir } from '../helpers/databases.js';
import { TestServer } from '../helpers/server.js';

// How the API key reaches `pingmon run`: stored by `pingmon login` (flags here; the terminal's offer is in
// login.test.ts) or `pingmon config set api-key`, and read by a run started as cron starts it.

const storedIn = (configHome: string) =>
  JSON.parse(readFileSync(join(configHome, 'pingmon', 'config.json'), 'utf8')) as { apiKey?: string };

t.test('pingmon login stores an API key for pingmon run with --api-key or --create-api-key', async (t) => {
  const api = await TestServer.start(t, 'sqlite');
  const account = await api.account('unlimited');
  const login = (configHome: string, ...flags: string[]) =>
    pingmon(['login', '--url', api.url, '--email', account.email, ...flags], {
      XDG_CONFIG_HOME: configHome,
      PINGMON_PASSWORD: account.password,
    });

  const asked = tempDir('pingmon-config-');
  const plain = await login(asked);
  t.equal(plain.code, 0, plain.stderr);
  t.match(plain.stdout, 'pingmon run needs an API key: `pingmon config set api-key pm_…`', 'without a terminal: said');
  t.equal(storedIn(asked).apiKey, undefined);

  const given = tempDir('pingmon-config-');
  const pasted = await login(given, '--api-key', account.apiKey);
  t.equal(pasted.code, 0, pasted.stderr);
  t.match(pasted.stdout, `API key ${account.apiKey.slice(0, 10)}… stored for pingmon run`);
  t.equal(storedIn(given).apiKey, account.apiKey);
  const again = await login(given);
  t.match(again.stdout, `pingmon run uses the API key stored there (${account.apiKey.slice(0, 10)}…).`);
  t.equal(storedIn(given).apiKey, account.apiKey, 'a stored key is kept');

  const other = await api.account('unlimited');
  const wrong = tempDir('pingmon-config-');
  const refused = await login(wrong, '--api-key', other.apiKey);
  t.equal(refused.code, 1);
  t.equal(
    refused.stderr,
    'pingmon: --api-key: that is not an active API key of this account (`pingmon keys list` shows them); ' +
      'no API key stored\n',
  );
  t.equal(storedIn(wrong).apiKey, undefined, 'logged in, no key stored');
  const misread = await login(wrong, '--api-key', 'mon_0mwre28zi1Ycax5mIt1');
  t.equal(misread.code, 1);
  t.match(misread.stderr, 'an API key starts with pm_ (`pingmon keys create` makes one)');

  const created = tempDir('pingmon-config-');
  const made = await login(created, '--create-api-key');
  t.equal(made.code, 0, made.stderr);
  t.match(made.stdout, /Created the ping-only API key key_\w+ \(pingmon run on .+\)\./);
  const key = storedIn(created).apiKey!;
  const monitorId = await api.monitor(account, 'job');
  const ping = await api.request(`/ping/${monitorId}/start`, { method: 'POST', apiKey: key });
  t.equal(ping.status, 200, 'the key created pings');

  const both = await login(tempDir('pingmon-config-'), '--create-api-key', '--api-key', account.apiKey);
  t.equal(both.code, 2, 'one or the other');
});

t.test(
  'after pingmon config set api-key, pingmon run started as cron starts it (HOME, a short PATH) reports',
  async (t) => {
    const api = await TestServer.start(t, 'sqlite');
    const account = await api.account('unlimited');
    const monitorId = await api.monitor(account, 'nightly backup');
    const home = tempDir('pingmon-home-');
    const cron = { HOME: home, PATH: '/usr/bin:/bin' };
    // Set as a user does, in their own shell, with nothing but HOME telling where the config file is.
    for (const [key, value] of [
      ['api-key', account.apiKey],
      ['url', api.url],
    ]) {
      const set = spawn(process.execPath, [CLI, 'config', 'set', key!, value!], { env: cron });
      const result = await finished(set);
      t.equal(result.code, 0, result.stderr);
    }
    // As a crontab line runs it: by the full path of bin/run.js, through its #!/usr/bin/env node, in cron's
    // environment (node itself must be on that PATH, as docs/cli.md says).
    const node = dirname(process.execPath);
    const path = cron.PATH.split(':').includes(node) ? cron.PATH : `${cron.PATH}:${node}`;
    const child = spawn(
      '/usr/bin/env',
      [
        '-i',
        `HOME=${home}`,
        `PATH=${path}`,
        CLI,
        'run',
        '--monitor',
        monitorId,
        '--',
        'sh',
        '-c',
        'echo dumped; exit 4',
      ],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const result = await finished(child);
    t.equal(result.code, 4, result.stderr);
    t.equal(result.stdout, 'dumped\n');
    t.equal(result.stderr, '', 'no setting missing');
    const runs = (await api.request(`/monitors/${monitorId}/runs`, { token: account.token })).body.runs;
    t.match(runs, [{ status: 'failed', errorMessage: 'exit code 4: dumped' }]);
  },
);

t.test('the ping-only key pingmon login creates reports runs, and makes no monitor from their settings', async (t) => {
  const api = await TestServer.start(t, 'sqlite');
  const account = await api.account('unlimited');
  const configHome = tempDir('pingmon-config-');
  const env = { XDG_CONFIG_HOME: configHome };
  const login = await pingmon(['login', '--url', api.url, '--email', account.email, '--create-api-key'], {
    ...env,
    PINGMON_PASSWORD: account.password,
  });
  t.equal(login.code, 0, login.stderr);
  const keys = (await api.request('/api-keys', { token: account.token })).body.apiKeys;
  t.match(keys, [{ name: /^pingmon run on /, provision: false }, { provision: true }]);
  const monitorId = await api.monitor(account, 'nightly backup');
  const slug = (await api.request(`/monitors/${monitorId}`, { token: account.token })).body.slug;
  const known = await pingmon(['run', '--monitor', slug, '--cron', '0 3 * * *', '--', 'true'], env);
  t.equal(known.code, 0);
  t.equal(known.stderr.split('\n').filter(Boolean).length, 1, known.stderr);
  t.match(known.stderr, /^\[pingmon\] .*/);
  const runs = (await api.request(`/monitors/${monitorId}/runs`, { token: account.token })).body.runs;
  t.match(runs, [{ status: 'success' }], 'the run is recorded');
  const monitor = (await api.request(`/monitors/${monitorId}`, { token: account.token })).body;
  t.equal(monitor.schedule, null, 'its settings unchanged');
  const unknown = await pingmon(['run', '--monitor', 'not-made', '--cron', '0 3 * * *', '--', 'true'], env);
  t.equal(unknown.code, 0, 'the job runs');
  const { monitors } = (await api.request('/monitors', { token: account.token })).body;
  t.equal(monitors.length, 1, 'no monitor made');
});
