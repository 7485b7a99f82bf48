import { spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import t from 'tap';
import type { Test } from 'tap';
import { tempDir } from '../helpers/databases.js';
import { pingmon } from '../helpers/cli.js';
import { json as reply, startReceiver } from '../helpers/receiver.js';
import { TestServer } from '../helpers/server.js';
import type { TestAccount } from '../helpers/server.js';
import { waitFor } from '../helpers/wait.js';

type Verify = (
  secret: string,
  header: string | undefined,
  rawBody: Buffer | string,
  toleranceSeconds?: number,
) => boolean;

/** The signature recipes of docs/alerts.md, taken from the page itself: the Node function and the openssl line. */
async function documentedRecipes(): Promise<{ verify: Verify; openssl: string }> {
  const page = readFileSync(new URL('../../../docs/alerts.md', import.meta.url), 'utf8');
  const js = /```js\n((?:(?!```)[\s\S])*export function verifyPingmonSignature(?:(?!```)[\s\S])*)```/.exec(page)![1]!;
  const dir = tempDir('pingmon-recipe-');
  writeFileSync(join(dir, 'verify.mjs'), js);
  const { verifyPingmonSignature } = (await import(pathToFileURL(join(dir, 'verify.mjs')).href)) as {
    verifyPingmonSignature: Verify;
  };
  rmSync(dir, { recursive: true, force: true });
  return { verify: verifyPingmonSignature, openssl: /^.*openssl dgst.*$/m.exec(page)![0] };
}

/** Checks a delivered webhook with both documented recipes. */
async function checkSignature(
  t: Test,
  secret: string,
  sent: { headers: Record<string, unknown>; body: string },
): Promise<void> {
  const { verify, openssl } = await documentedRecipes();
  const header = String(sent.headers['x-pingmon-signature']);
  t.ok(verify(secret, header, Buffer.from(sent.body, 'utf8')), 'the documented Node recipe verifies the raw body');
  t.ok(verify(secret, header, sent.body), 'given as a string too');
  t.notOk(verify('another-secret-entirely', header, sent.body), 'not with another secret');
  t.notOk(verify(secret, header, sent.body.replace('"event"', '"event" ')), 'not once the body is changed');
  t.notOk(verify(secret, header, sent.body, -1), 'not outside the time tolerance');
  const [, ts, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header)!;
  const dir = tempDir('pingmon-openssl-');
  writeFileSync(join(dir, 'body.json'), sent.body);
  const shell = spawnSync('bash', ['-c', openssl], {
    cwd: dir,
    env: { ...process.env, t: ts, secret },
    encoding: 'utf8',
  });
  rmSync(dir, { recursive: true, force: true });
  t.equal(shell.stdout.trim(), v1, `the documented openssl line prints v1 (${shell.stderr.trim()})`);
}

const USAGE_HINT = new RegExp(
  String.raw`^pingmon: .* expected METRIC OP NUMBER \(OP: < <= > >= == != or lt lte gt gte eq neq\), ` +
    String.raw`e\.g\. pingmon rules add mon_\w+ 'rowsProcessed < 1'\n$`,
);

t.test('rules, channels and alerts from the command line against a real server', async (t) => {
  // A failed delivery waits a minute before its retry, so `pingmon alerts` can be caught showing it pending. No
  // attempt here is meant to time out: the receivers answer at once, however long a loaded machine takes.
  const api = await TestServer.start(t, 'sqlite', {
    alertPollMs: 50,
    alertRetryBaseMs: 60_000,
    alertTimeoutMs: 30_000,
  });
  const configHome = tempDir('pingmon-config-');
  /** `pingmon …` as `account`, logged in through PINGMON_URL and PINGMON_TOKEN; `--json` output parsed. */
  const as = (account: TestAccount, extra: Record<string, string> = {}) => {
    const env = { PINGMON_URL: api.url, PINGMON_TOKEN: account.token, XDG_CONFIG_HOME: configHome, ...extra };
    const cli = (...args: string[]) => pingmon(args, env);
    const json = async (...args: string[]) => {
      const result = await cli(...args, '--json');
      if (result.code !== 0) throw new Error(`pingmon ${args.join(' ')} exited with ${result.code}: ${result.stderr}`);
      return JSON.parse(result.stdout);
    };
    return { cli, json };
  };

  t.test('rules add understands every operator, as a symbol (spaces or not) or a word, quoted or not', async (t) => {
    const alice = await api.account();
    const { cli, json } = as(alice);
    const m = await api.monitor(alice, 'rules');
    const forms: Array<[string[], string, number]> = [
      [['rowsProcessed < 1'], 'lt', 1],
      [['rowsProcessed<=1.5'], 'lte', 1.5],
      [['rowsProcessed >1e3'], 'gt', 1000],
      [['rowsProcessed>= -2'], 'gte', -2],
      [['rowsProcessed == 0'], 'eq', 0],
      [['rowsProcessed!=7'], 'neq', 7],
      [['rowsProcessed', 'lt', '1'], 'lt', 1],
      [['rowsProcessed lte 2'], 'lte', 2],
      [['rowsProcessed', 'GT', '3'], 'gt', 3],
      [['rowsProcessed gte 4'], 'gte', 4],
      [['rowsProcessed', 'eq', '5'], 'eq', 5],
      [['rowsProcessed neq -6'], 'neq', -6],
    ];
    // Independent commands run side by side: each is a process of its own.
    const results = await Promise.all(forms.map(([words]) => cli('rules', 'add', m, ...words)));
    for (const [i, result] of results.entries()) {
      t.equal(result.code, 0, `${forms[i]![0].join(' ')}: ${result.stderr}`);
      t.match(
        result.stdout,
        new RegExp(
          `^Added rule_\\w+ to ${m}: a success with rowsProcessed \\S+ ${forms[i]![2]} ` +
            'raises a silent_failure alert\\.\\n$',
        ),
      );
    }
    const rules = await json('rules', 'list', m);
    const key = (rule: unknown[]) => JSON.stringify(rule);
    t.same(
      rules.map((r: { metric: string; op: string; value: number }) => key([r.metric, r.op, r.value])).sort(),
      forms.map(([, op, value]) => key(['rowsProcessed', op, value])).sort(),
    );
    const table = await cli('rules', 'list', m);
    t.match(table.stdout, /^ID\s+RULE\s+CREATED\n/);
    const lte = rules.find((r: { value: number }) => r.value === 1.5);
    t.match(table.stdout, new RegExp(`${lte.ruleId}\\s+rowsProcessed <= 1\\.5\\s+\\d{4}-`));
    t.match(table.stdout, /rowsProcessed != -6/);

    const added = await json('rules', 'add', m, 'errors > 0');
    t.match(added, { ruleId: /^rule_/, monitorId: m, metric: 'errors', op: 'gt', value: 0 });
    const removed = await cli('rules', 'remove', m, added.ruleId);
    t.equal(removed.code, 0);
    t.equal(removed.stdout, `Removed ${added.ruleId} from ${m}; runs it matched keep their marks.\n`);
    t.notOk((await json('rules', 'list', m)).some((r: { ruleId: string }) => r.ruleId === added.ruleId));
    const again = await cli('rules', 'remove', m, added.ruleId);
    t.equal(again.code, 1);
    t.equal(again.stderr, `pingmon: No rule ${added.ruleId} on monitor ${m}.\n`);
  });

  t.test('a rule that cannot be read is a usage error (exit 2) that shows the form; nothing is added', async (t) => {
    const alice = await api.account();
    const { cli, json } = as(alice);
    const m = await api.monitor(alice, 'typos');
    const bad = [['rows is low'], ['rows = 1'], ['rows => 1'], ['< 1'], ['rows < abc'], ['rows', 'less', '1']];
    const results = await Promise.all(bad.map((words) => cli('rules', 'add', m, ...words)));
    for (const [i, result] of results.entries()) {
      t.equal(result.code, 2, bad[i]!.join(' '));
      t.match(result.stderr, USAGE_HINT);
      t.equal(result.stderr.split('\n').length, 2, 'one line');
      t.equal(result.stdout, '');
    }
    const missing = await cli('rules', 'add', m);
    t.equal(missing.code, 2);
    t.same(await json('rules', 'list', m), []);
    const empty = await cli('rules', 'list', m);
    t.equal(empty.stdout, `No rules on ${m}: add one with \`pingmon rules add ${m} 'rowsProcessed < 1'\`.\n`);
    const foreign = await cli('rules', 'add', await api.monitor(await api.account()), 'rows < 1');
    t.equal(foreign.code, 1);
    t.match(foreign.stderr, /^pingmon: No monitor mon_\w+ in your account\.\n$/);
  });

  t.test('channels add, list, test, disable, enable, remove, with a real receiver', async (t) => {
    const alice = await api.account();
    const { cli, json } = as(alice);
    const receiver = await startReceiver(t, (req, _n, res) =>
      req.url === '/busy' ? reply(res, 503, { error: 'busy' }) : reply(res, 200, { ok: true }),
    );
    const m = await api.monitor(alice, 'nightly backup');
    t.equal(
      (await cli('channels', 'list')).stdout,
      'No channels yet: add one with `pingmon channels add --type slack|discord|webhook --url URL`.\n',
    );

    const added = await cli(
      'channels',
      'add',
      '--type',
      'webhook',
      '--url',
      `${receiver.url}/hook/token-in-path`,
      '--name',
      'incident bot',
      '--secret',
      'whsec_0123456789abcdef',
    );
    t.equal(added.code, 0, added.stderr);
    const [, hookId] =
      /^Added (ch_\w+) \(incident bot, webhook, signed\) for the alerts of every monitor\.\n/.exec(added.stdout) ?? [];
    t.ok(hookId, added.stdout);
    t.match(added.stdout, new RegExp(`Send it a test message: pingmon channels test ${hookId}\\n$`));
    const slack = await json('channels', 'add', '--type', 'slack', '--url', `${receiver.url}/busy`, '--monitor', m);
    t.match(slack, {
      channelId: /^ch_/,
      name: 'slack channel',
      type: 'slack',
      url: `${receiver.url}/…`,
      hasSecret: false,
      monitorIds: [m],
      enabled: true,
    });

    const [secretForSlack, badType, noUrl, unknownMonitor] = await Promise.all([
      cli('channels', 'add', '--type', 'slack', '--url', receiver.url, '--secret', 'whsec_0123456789abcdef'),
      cli('channels', 'add', '--type', 'teams', '--url', receiver.url),
      cli('channels', 'add', '--type', 'slack'),
      cli('channels', 'add', '--type', 'slack', '--url', receiver.url, '--monitor', 'mon_nope'),
    ]);
    t.equal(secretForSlack.code, 2);
    t.equal(secretForSlack.stderr, 'pingmon: --secret is for webhook channels only: slack payloads are not signed\n');
    t.equal(badType.code, 2);
    t.match(badType.stderr, /^pingmon: Expected --type=teams to be one of: slack, discord, webhook\n$/);
    t.equal(noUrl.code, 2);
    t.equal(noUrl.stderr, 'pingmon: Missing required flag url\n');
    t.equal(unknownMonitor.code, 1);
    t.equal(unknownMonitor.stderr, 'pingmon: monitorIds names monitors that are not in your account: mon_nope.\n');

    const listed = await json('channels', 'list');
    t.same(
      listed.map((c: { channelId: string }) => c.channelId),
      [slack.channelId, hookId],
      'newest first, nothing created by the refused commands',
    );
    const table = await cli('channels', 'list');
    t.match(table.stdout, /^ID\s+NAME\s+TYPE\s+URL\s+ALERTS OF\s+STATE\n/);
    t.match(
      table.stdout,
      new RegExp(
        `${hookId}\\s+incident bot\\s+webhook, signed\\s+http://127\\.0\\.0\\.1:\\d+/…\\s+every monitor\\s+enabled`,
      ),
    );
    t.match(table.stdout, new RegExp(`${slack.channelId}\\s+slack channel\\s+slack\\s+\\S+\\s+${m}\\s+enabled`));
    t.notMatch(
      table.stdout + JSON.stringify(listed),
      /token-in-path|whsec_/,
      'neither the full URL nor the secret is shown',
    );

    const tested = await cli('channels', 'test', hookId!);
    t.equal(tested.code, 0, tested.stderr);
    t.match(tested.stdout, new RegExp(`^Delivered to ${hookId}: HTTP 200 in \\d+(ms|s)\\.\\n$`));
    const sent = receiver.received.at(-1)!;
    t.equal(sent.url, '/hook/token-in-path');
    t.match(JSON.parse(sent.body), { event: 'test', alertId: null, errorMessage: /incident bot/ });
    const [, ts, mac] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(sent.headers['x-pingmon-signature']))!;
    t.equal(mac, createHmac('sha256', 'whsec_0123456789abcdef').update(`${ts}.${sent.body}`).digest('hex'), 'signed');

    const refused = await cli('channels', 'test', slack.channelId);
    t.equal(refused.code, 1);
    t.equal(refused.stdout, '');
    t.match(
      refused.stderr,
      new RegExp(`^pingmon: not delivered to ${slack.channelId}: HTTP 503 in \\d+(ms|s): \\{"error":"busy"\\}\\n$`),
    );
    const refusedJson = await cli('channels', 'test', slack.channelId, '--json');
    t.equal(refusedJson.code, 1);
    t.match(JSON.parse(refusedJson.stdout), { delivered: false, statusCode: 503, error: 'HTTP 503: {"error":"busy"}' });
    t.match(JSON.parse((await cli('channels', 'test', hookId!, '--json')).stdout), {
      delivered: true,
      statusCode: 200,
      error: null,
    });
    const nowhere = await cli('channels', 'test', 'ch_nope');
    t.equal(nowhere.code, 1);
    t.equal(nowhere.stderr, 'pingmon: No channel ch_nope in your account.\n');

    const disabled = await cli('channels', 'disable', slack.channelId);
    t.equal(disabled.code, 0);
    t.match(disabled.stdout, /^Disabled ch_\w+ \(slack channel\)/);
    t.match(await cli('channels', 'list'), { stdout: new RegExp(`${slack.channelId}.*disabled`) });
    t.equal((await cli('channels', 'enable', slack.channelId)).code, 0);
    t.equal((await json('channels', 'list'))[0].enabled, true);

    const removed = await cli('channels', 'remove', slack.channelId);
    t.equal(removed.code, 0);
    t.equal(removed.stdout, `Removed ${slack.channelId}; alerts still waiting for it will not be sent.\n`);
    t.same(
      (await json('channels', 'list')).map((c: { channelId: string }) => c.channelId),
      [hookId],
    );
    const twice = await cli('channels', 'remove', slack.channelId);
    t.equal(twice.code, 1);
    t.equal(twice.stderr, `pingmon: No channel ${slack.channelId} in your account.\n`);
  });

  t.test(
    'channels update changes the name, URL, secret and monitors; nothing to change is a usage error',
    async (t) => {
      const alice = await api.account();
      const { cli, json } = as(alice);
      const receiver = await startReceiver(t, (_req, _n, res) => reply(res, 200, { ok: true }));
      const [m1, m2] = [await api.monitor(alice, 'backup'), await api.monitor(alice, 'export')];
      const hook = await json(
        'channels',
        'add',
        '--type',
        'webhook',
        '--url',
        `${receiver.url}/old`,
        '--secret',
        'whsec_0123456789abcdef',
        '--monitor',
        m1,
      );

      const moved = await cli('channels', 'update', hook.channelId, '--url', `${receiver.url}/new`);
      t.equal(moved.code, 0, moved.stderr);
      t.equal(
        moved.stdout,
        `Updated ${hook.channelId} (webhook channel, webhook, signed) for the alerts of ${m1}.\n` +
          `Send it a test message: pingmon channels test ${hook.channelId}\n`,
      );
      t.equal((await cli('channels', 'test', hook.channelId)).code, 0);
      t.equal(receiver.received.at(-1)!.url, '/new', 'the test went to the new URL');
      t.ok(receiver.received.at(-1)!.headers['x-pingmon-signature'], 'still signed');

      t.match(await json('channels', 'update', hook.channelId, '--monitor', m1, '--monitor', m2), {
        monitorIds: [m1, m2],
      });
      const opened = await json(
        'channels',
        'update',
        hook.channelId,
        '--name',
        'all jobs',
        '--all-monitors',
        '--remove-secret',
      );
      t.match(opened, {
        channelId: hook.channelId,
        name: 'all jobs',
        hasSecret: false,
        monitorIds: null,
        url: `${receiver.url}/…`,
      });
      t.equal((await cli('channels', 'test', hook.channelId)).code, 0);
      t.equal(receiver.received.at(-1)!.headers['x-pingmon-signature'], undefined, 'no longer signed');
      t.match(
        (await cli('channels', 'update', hook.channelId, '--secret', 'whsec_another_secret')).stdout,
        /\(all jobs, webhook, signed\) for the alerts of every monitor\.\n$/,
      );

      const slack = await json('channels', 'add', '--type', 'slack', '--url', receiver.url);
      const [nothing, both, secretForSlack, nowhere, unknownMonitor] = await Promise.all([
        cli('channels', 'update', hook.channelId),
        cli('channels', 'update', hook.channelId, '--secret', 'whsec_0123456789abcdef', '--remove-secret'),
        cli('channels', 'update', slack.channelId, '--secret', 'whsec_0123456789abcdef'),
        cli('channels', 'update', 'ch_nope', '--name', 'x'),
        cli('channels', 'update', hook.channelId, '--monitor', 'mon_nope'),
      ]);
      t.equal(nothing.code, 2);
      t.equal(
        nothing.stderr,
        'pingmon: say what to change: --name, --url, --secret, --remove-secret, --monitor or --all-monitors\n',
      );
      t.equal(both.code, 2);
      t.match(both.stderr, /^pingmon: --remove-secret=true cannot also be provided when using --secret\n$/);
      t.equal(secretForSlack.code, 1);
      t.match(secretForSlack.stderr, /^pingmon: .*secret.*\n$/);
      t.equal(nowhere.code, 1);
      t.equal(nowhere.stderr, 'pingmon: No channel ch_nope in your account.\n');
      t.equal(unknownMonitor.code, 1);
      t.equal(unknownMonitor.stderr, 'pingmon: monitorIds names monitors that are not in your account: mon_nope.\n');
      t.match(
        (await json('channels', 'list')).find((c: { channelId: string }) => c.channelId === hook.channelId),
        { name: 'all jobs', hasSecret: true, monitorIds: null },
        'the refused updates changed nothing',
      );
    },
  );

  t.test(
    'a failed `pingmon run` raises a fail alert that reaches the receiver, and `pingmon alerts` shows its delivery',
    async (t) => {
      const alice = await api.account();
      const { cli, json } = as(alice);
      const receiver = await startReceiver(t, (req, _n, res) => {
        if (req.url === '/busy') reply(res, 503, { error: 'busy' });
        else if (req.url === '/bad') reply(res, 400, { error: 'bad payload' });
        else reply(res, 200, {});
      });
      const m = await api.monitor(alice, 'nightly backup');
      t.equal((await cli('alerts')).stdout, 'No alerts yet.\n');
      const hook = await json(
        'channels',
        'add',
        '--type',
        'webhook',
        '--url',
        `${receiver.url}/hook`,
        '--name',
        'incident bot',
        '--secret',
        'whsec_0123456789abcdef',
      );
      await json('channels', 'add', '--type', 'discord', '--url', `${receiver.url}/busy`, '--name', 'ops discord');
      await json('channels', 'add', '--type', 'slack', '--url', `${receiver.url}/bad`, '--name', 'ops slack');

      const run = await pingmon(
        ['run', '--', 'sh', '-c', 'echo "tar: /data: Cannot open: Permission denied" >&2; exit 3'],
        {
          PINGMON_URL: api.url,
          PINGMON_API_KEY: alice.apiKey,
          PINGMON_MONITOR: m,
          XDG_CONFIG_HOME: configHome,
        },
      );
      t.equal(run.code, 3, run.stderr);
      const sent = await waitFor(() => receiver.received.find((r) => r.url === '/hook'), { what: 'the webhook' });
      const payload = JSON.parse(sent.body);
      t.match(payload, {
        event: 'fail',
        monitorId: m,
        monitorName: 'nightly backup',
        status: 'failed',
        errorMessage: 'exit code 3',
        logSnippet: 'tar: /data: Cannot open: Permission denied\n',
        meta: { exitCode: 3 },
        matchedRules: [],
      });
      await checkSignature(t, 'whsec_0123456789abcdef', sent);
      const discord = await waitFor(() => receiver.received.find((r) => r.url === '/busy'), {
        what: 'the Discord attempt',
      });
      t.match(
        JSON.parse(discord.body).content,
        /```\ntar: \/data: Cannot open: Permission denied\n\n```/,
        'the snippet in a code block',
      );

      // Every channel tried once: delivered, refused for good, waiting for its retry.
      await waitFor(
        async () => {
          const d = (await api.request('/alerts', { token: alice.token })).body.alerts[0]?.deliveries ?? [];
          return d.length === 3 && d.every((x: { attempts: unknown[] }) => x.attempts.length === 1);
        },
        { what: 'one attempt per channel' },
      );
      const [alert] = await json('alerts');
      t.match(alert, {
        alertId: payload.alertId,
        event: 'fail',
        monitorId: m,
        runId: payload.runId,
        errorMessage: 'exit code 3',
      });
      t.same(
        alert.deliveries.map((d: { channelId: string; state: string }) => d.state),
        ['delivered', 'pending', 'failed'],
      );
      t.equal(alert.deliveries[0].channelId, hook.channelId);

      const shown = await cli('alerts');
      t.equal(shown.code, 0);
      const lines = shown.stdout.split('\n');
      t.match(lines[0], new RegExp(`^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}  ✗ fail  nightly backup \\(${m}\\)$`));
      t.equal(lines[1], `  run ${payload.runId}: exit code 3`);
      t.match(lines[2], /^ {2}incident bot {2}✓ delivered \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      t.match(
        lines[3],
        new RegExp(
          String.raw`^ {2}ops discord {3}… pending \(attempt 1, next at \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\): ` +
            String.raw`HTTP 503: \{"error":"busy"\}$`,
        ),
      );
      t.match(lines[4], /^ {2}ops slack {5}✗ failed after 1 attempt: HTTP 400: \{"error":"bad payload"\}$/);
      const narrow = await as(alice, { COLUMNS: '50' }).cli('alerts');
      t.ok(
        narrow.stdout
          .trimEnd()
          .split('\n')
          .every((line) => line.length <= 50),
        narrow.stdout,
      );
      t.match(narrow.stdout, /…\n/, 'long lines cut with …');

      const other = await api.monitor(alice, 'other');
      t.equal((await cli('alerts', '--monitor', other)).stdout, `No alerts for ${other}.\n`);
      t.same(
        (await json('alerts', '--monitor', m, '--limit', '1')).map((a: { alertId: string }) => a.alertId),
        [payload.alertId],
      );
      const badLimit = await cli('alerts', '--limit', '0');
      t.equal(badLimit.code, 2);
      const foreign = await as(await api.account()).cli('alerts', '--monitor', m);
      t.equal(foreign.code, 1);
      t.equal(foreign.stderr, `pingmon: No monitor ${m} in your account.\n`);
    },
  );

  t.test('a silent failure: a rule, then a successful `pingmon run` reporting rowsProcessed=0', async (t) => {
    const alice = await api.account();
    const { cli, json } = as(alice);
    const receiver = await startReceiver(t, (_req, _n, res) => reply(res, 200, {}));
    const m = await api.monitor(alice, 'orders export — café ☕');
    await json('channels', 'add', '--type', 'webhook', '--url', `${receiver.url}/hook`, '--secret', 'sécret ☕ 0123');
    t.equal((await cli('rules', 'add', m, 'rowsProcessed < 1')).code, 0);
    t.equal((await cli('rules', 'add', m, 'rowsProcessed', '<=', '0')).code, 0);
    t.equal((await cli('rules', 'add', m, 'notReported == 0')).code, 0);
    const env = {
      PINGMON_URL: api.url,
      PINGMON_API_KEY: alice.apiKey,
      PINGMON_MONITOR: m,
      XDG_CONFIG_HOME: configHome,
    };

    const healthy = await pingmon(['run', '--meta', 'rowsProcessed=12', '--', 'true'], env);
    t.equal(healthy.code, 0);
    const silent = await pingmon(['run', '--meta', 'rowsProcessed=0', '--', 'true'], env);
    t.equal(silent.code, 0, 'the job itself succeeded');
    const sent = await waitFor(() => receiver.received[0], { what: 'the silent_failure webhook' });
    const payload = JSON.parse(sent.body);
    await checkSignature(t, 'sécret ☕ 0123', sent);
    t.match(payload, {
      event: 'silent_failure',
      monitorId: m,
      monitorName: 'orders export — café ☕',
      status: 'success',
      errorMessage: null,
      logSnippet: null,
      meta: { rowsProcessed: 0, exitCode: 0 },
    });
    t.same(
      payload.matchedRules.map((r: { metric: string; op: string; value: number; actual: number }) => [
        r.metric,
        r.op,
        r.value,
        r.actual,
      ]),
      [
        ['rowsProcessed', 'lt', 1, 0],
        ['rowsProcessed', 'lte', 0, 0],
      ],
      'one alert listing every matched rule; a metric not reported never matches',
    );

    await waitFor(
      async () =>
        (await api.request(`/alerts?monitorId=${m}`, { token: alice.token })).body.alerts[0]?.deliveries[0]?.state ===
        'delivered',
      { what: 'the delivery recorded' },
    );
    const alerts = await json('alerts', '--monitor', m);
    t.equal(alerts.length, 1, 'the healthy run raised nothing');
    const shown = (await cli('alerts', '--monitor', m)).stdout.split('\n');
    t.match(shown[0], new RegExp(`  ▲ silent failure  orders export — café ☕ \\(${m}\\)$`));
    t.equal(shown[1], `  run ${payload.runId}: rowsProcessed < 1 (was 0), rowsProcessed <= 0 (was 0)`);
    t.match(shown[2], /^ {2}webhook channel {2}✓ delivered /);
    const runs = await json('runs', m);
    t.match(runs[0], { runId: payload.runId, status: 'success', silentFailure: true });
    const table = (await as(alice, { COLUMNS: '200' }).cli('runs', m)).stdout.split('\n');
    const matched = 'rowsProcessed < 1 \\(was 0\\), rowsProcessed <= 0 \\(was 0\\)';
    const marked = '\\s+✓ success ▲\\s+\\S+ \\S+\\s+\\S+\\s+';
    t.match(table[1], new RegExp(`^${payload.runId}${marked}silent failure: ${matched}$`));
    t.match(table[2], /\s+✓ success\s+\S+ \S+\s+\S+$/, 'the healthy run is not marked');
  });
});
