import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Jwt from '@hapi/jwt';
import t from 'tap';
import { tempDir } from '../helpers/databases.js';
import { pingmon } from '../helpers/cli.js';
import { json as reply, startReceiver } from '../helpers/receiver.js';
import { TestServer } from '../helpers/server.js';

const SECRET = 'cli-test-secret-cli-test-secret-cli-test-secret';

t.test('the everyday commands against a real server', async (t) => {
  const api = await TestServer.start(t, 'sqlite', { jwtSecret: SECRET });
  const account = await api.account('unlimited');
  const configHome = tempDir('pingmon-config-');
  const env = { XDG_CONFIG_HOME: configHome };
  const cli = (...args: string[]) => pingmon(args, env);
  const json = async (...args: string[]) => {
    const result = await cli(...args, '--json');
    if (result.code !== 0) throw new Error(`pingmon ${args.join(' ')}: ${result.stderr}`);
    return JSON.parse(result.stdout);
  };

  t.test('before login, commands say to log in', async (t) => {
    const result = await cli('monitors', 'list');
    t.equal(result.code, 1);
    t.equal(result.stderr, 'pingmon: not logged in: run `pingmon login` first\n');
  });

  t.test(
    'login without a terminal needs its flags, then stores URL and token readable by the owner only',
    async (t) => {
      const missing = await cli('login', '--url', api.url);
      t.equal(missing.code, 2);
      t.match(missing.stderr, /missing email: pass it as a flag/);
      const wrong = await cli('login', '--url', api.url, '--email', account.email, '--password', 'not it at all');
      t.equal(wrong.code, 1);
      t.equal(wrong.stderr, 'pingmon: Wrong email or password.\n');
      const ok = await cli('login', '--url', api.url, '--email', account.email, '--password', account.password);
      t.equal(ok.code, 0, ok.stderr);
      t.match(ok.stdout, new RegExp(`Logged in as ${account.email}`));
      const file = join(configHome, 'pingmon', 'config.json');
      t.equal(statSync(file).mode & 0o777, 0o600);
      const stored = await json('config', 'get');
      t.equal(stored.url, api.url);
      t.match(stored.token, /^eyJ/);
    },
  );

  t.test('monitors: create, list, show, rename, delete, with --json', async (t) => {
    const created = await json('monitors', 'create', 'nightly backup');
    t.match(created, { monitorId: /^mon_/, name: 'nightly backup', lastRun: null });
    await api.ping(account, created.monitorId, 'fail', {
      errorMessage: 'disk full\nsecond line',
      logOutput: 'the whole log',
    });
    const listed = await json('monitors', 'list');
    t.match(
      listed.find((m: { monitorId: string }) => m.monitorId === created.monitorId),
      { lastRun: { status: 'failed' }, recentRuns: { runs: 1, failed: 1, silentFailures: 0 } },
    );
    const table = await cli('monitors', 'list');
    t.match(table.stdout, /^SLUG\s+NAME\s+STATUS\s+NEXT \(UTC\)\s+LAST RUN\s+STARTED\s+DURATION\s+FAILS\n/);
    const failedRow = `${created.slug}\\s+nightly backup\\s+✗ down\\s+—\\s+✗ failed\\s+\\S+ \\S+\\s+\\S+\\s+1/1\n`;
    t.match(table.stdout, new RegExp(failedRow));
    t.equal((await json('monitors', 'show', created.monitorId)).name, 'nightly backup');
    const shown = await cli('monitors', 'show', created.monitorId);
    t.match(shown.stdout, /\nstatus {6}✗ down since \S+ \S+ \(a run failed\)\n/);
    t.match(shown.stdout, /\nlast run {4}✗ failed .*\nrecent {6}1 failed, 0 silent failures in the last 1 run\n/);
    t.match(shown.stdout, /\nschedule {4}none\n[\s\S]*\nNo schedule: nothing is expected/);
    const renamed = await cli('monitors', 'rename', created.monitorId, 'db backup');
    t.equal(renamed.code, 0);
    t.equal((await json('monitors', 'show', created.monitorId)).name, 'db backup');

    const runs = await json('runs', created.monitorId, '--status', 'failed');
    t.equal(runs.length, 1);
    t.equal(runs[0].errorMessage, 'disk full\nsecond line');
    const runsTable = await cli('runs', created.monitorId);
    t.match(runsTable.stdout, /disk full\n/, 'the first line of the error');
    t.notMatch(runsTable.stdout, /second line/);
    const log = await cli('logs', created.monitorId, runs[0].runId);
    t.equal(log.stdout, 'the whole log', 'printed as it is');
    const noLog = await cli(
      'logs',
      created.monitorId,
      (await api.ping(account, created.monitorId, 'success')).body.data.runId,
    );
    t.equal(noLog.stdout, '');
    t.equal(noLog.stderr, 'This run has no log.\n');

    const deleted = await cli('monitors', 'delete', created.monitorId);
    t.equal(deleted.code, 0);
    const gone = await cli('monitors', 'show', created.monitorId);
    t.equal(gone.code, 1);
    t.match(gone.stderr, /^pingmon: No monitor .* in your account\.\n$/);
  });

  t.test('monitors by slug: create and update --slug, and the slug wherever the id goes', async (t) => {
    const created = await cli('monitors', 'create', 'Nightly Backup (db1)', '--slug', 'nightly-db1');
    t.equal(created.code, 0, created.stderr);
    t.match(created.stdout, /^Created mon_\S+ \(Nightly Backup \(db1\)\), slug nightly-db1\. /);
    t.match(created.stdout, /pingmon run --monitor nightly-db1 -- COMMAND/);
    const made = await json('monitors', 'create', 'weekly report');
    t.equal(made.slug, 'weekly-report', 'made from the name');
    const shown = await cli('monitors', 'show', 'nightly-db1');
    t.match(shown.stdout, /\nslug {8}nightly-db1\n/);
    const table = await cli('monitors', 'list');
    t.match(table.stdout, /\nnightly-db1\s+Nightly Backup \(db1\)\s/);
    await api.ping(account, 'nightly-db1', 'fail', { errorMessage: 'disk full' });
    t.equal((await json('runs', 'nightly-db1')).length, 1);
    const updated = await cli('monitors', 'update', 'nightly-db1', '--slug', 'nightly');
    t.equal(updated.code, 0, updated.stderr);
    t.match(updated.stdout, /\(Nightly Backup \(db1\), slug nightly\)/);
    t.equal((await json('monitors', 'show', 'nightly')).monitorId, /^Created (mon_\S+)/.exec(created.stdout)![1]);
    const taken = await cli('monitors', 'update', 'nightly', '--slug', 'weekly-report');
    t.equal(taken.code, 1);
    t.match(taken.stderr, /^pingmon: Another monitor of your account has the slug weekly-report: choose another one/);
    const bad = await cli('monitors', 'create', 'bad', '--slug', 'Not A Slug');
    t.equal(bad.code, 1);
    t.match(bad.stderr, /^pingmon: slug must be 1 to 64 of a-z, 0-9, - and _/);
    t.equal((await cli('monitors', 'delete', 'nightly')).code, 0);
    t.equal((await cli('monitors', 'show', 'nightly')).code, 1);
  });

  t.test('keys: create shows the key once, list never does, revoke', async (t) => {
    const created = await json('keys', 'create', '--name', 'ci');
    t.match(created, { keyId: /^key_/, key: /^pm_/, name: 'ci', provision: true });
    const pingOnly = await cli('keys', 'create', '--name', 'cron host', '--no-provision');
    t.match(pingOnly.stdout, /^key_\S+ \(cron host, ping-only\): pm_/);
    const list = await cli('keys', 'list');
    // SCOPE: a ping key that may provision is `ping` (docs/cli.md#pingmon-keys-list).
    t.match(list.stdout, new RegExp(`${created.keyId}\\s+ci\\s+pm_\\S+\\s+ping\\s+all\\s`));
    t.match(list.stdout, /\scron host\s+pm_\S+\s+ping-only\s/);
    t.notMatch(list.stdout, new RegExp(created.key));
    t.equal((await cli('keys', 'revoke', created.keyId)).code, 0);
    const keys = await json('keys', 'list');
    t.ok(keys.find((k: { keyId: string }) => k.keyId === created.keyId).revokedAt);
    // More keys than one page holds (200): the command reads every page.
    for (let i = 0; i < 200; i++) await api.request('/api-keys', { token: account.token, body: { name: `k${i}` } });
    const all = await json('keys', 'list');
    t.equal(all.length, keys.length + 200, 'every key, over two pages');
    t.equal(all.find((k: { name: string }) => k.name === 'cron host').provision, false);
  });

  t.test('config set checks what it stores; logout forgets the token', async (t) => {
    const bad = await cli('config', 'set', 'url', 'localhost:8080');
    t.equal(bad.code, 2);
    t.equal((await cli('config', 'set', 'monitor', 'mon_default')).code, 0);
    t.equal((await cli('config', 'get', 'monitor')).stdout, 'mon_default\n');
    const unknown = await cli('config', 'set', 'colour', 'blue');
    t.equal(unknown.code, 2);
  });

  t.test('an expired login says to run pingmon login', async (t) => {
    const now = Math.floor(Date.now() / 1000);
    const expired = Jwt.token.generate(
      { sub: account.userId, acc: account.accountId, aud: 'pingmon', iss: 'pingmon', iat: now - 100, exp: now - 10 },
      { key: SECRET, algorithm: 'HS256' },
    );
    const result = await pingmon(['monitors', 'list'], { ...env, PINGMON_TOKEN: expired });
    t.equal(result.code, 1);
    t.equal(result.stderr, 'pingmon: your login has expired: run `pingmon login`\n');
  });

  t.test('tables fit a narrow terminal', async (t) => {
    await json('monitors', 'create', 'a monitor with a name much longer than a narrow terminal could ever show');
    const result = await pingmon(['monitors', 'list'], { ...env, COLUMNS: '60' });
    t.ok(
      result.stdout
        .trim()
        .split('\n')
        .every((line) => line.length <= 60),
      result.stdout,
    );
  });

  t.test('the stored token is never sent to another server given with --url', async (t) => {
    const seen: string[] = [];
    const other = await startReceiver(t, (req, _n, res) => {
      seen.push(String(req.headers.authorization ?? ''));
      reply(res, 200, { monitors: [], nextCursor: null });
    });
    const result = await cli('monitors', 'list', '--url', other.url);
    t.equal(result.code, 1);
    t.equal(result.stderr, `pingmon: not logged in to ${other.url}: run \`pingmon login --url ${other.url}\` first\n`);
    t.same(seen, [], 'nothing was sent');
  });

  t.test('-h is help everywhere, and an unknown command is one line and exit 2', async (t) => {
    for (const args of [
      ['monitors', 'list', '-h'],
      ['run', '-h'],
      ['login', '-h'],
    ]) {
      const help = await cli(...args);
      t.equal(help.code, 0, args.join(' '));
      t.match(help.stdout, /USAGE/);
    }
    const unknown = await cli('monitors', 'frob');
    t.equal(unknown.code, 2);
    t.equal(
      unknown.stderr,
      'pingmon: unknown command "monitors frob"; run `pingmon --help` for the list of commands\n',
    );
  });

  t.test('logout ends the session on the server, then forgets the token', async (t) => {
    const token = (await json('config', 'get')).token;
    t.equal((await api.request('/me', { token })).status, 200);
    const out = await cli('logout');
    t.equal(out.code, 0, out.stderr);
    t.match(out.stdout, /^Logged out: the server ended the session, and the token is removed from /);
    const copy = await api.request('/me', { token });
    t.equal(copy.status, 401, 'a copy of the token is refused too');
    t.equal(copy.body.code, 'session_ended');
    t.equal((await cli('monitors', 'list')).code, 1);
    const file = join(configHome, 'pingmon', 'config.json');
    const before = statSync(file).mtimeMs;
    t.equal((await cli('logout')).stdout, 'Not logged in.\n');
    t.equal(statSync(file).mtimeMs, before, 'the config file was left alone');
  });

  t.test('logout with the server out of reach forgets the token and says it is still valid', async (t) => {
    const home = tempDir('pingmon-config-');
    mkdirSync(join(home, 'pingmon'));
    writeFileSync(join(home, 'pingmon', 'config.json'), JSON.stringify({ url: 'http://127.0.0.1:9', token: 'eyJx' }));
    const out = await pingmon(['logout'], { XDG_CONFIG_HOME: home });
    t.equal(out.code, 0);
    t.match(
      out.stderr,
      /^pingmon: could not end the session on the server \(.+\): the token stays valid until it expires\n$/,
    );
    t.match(out.stdout, /^Logged out: the session was not ended on the server, and the token is removed/);
    t.equal((await pingmon(['logout'], { XDG_CONFIG_HOME: home })).stdout, 'Not logged in.\n');
  });
});
