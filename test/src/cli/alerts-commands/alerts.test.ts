import t from 'tap';
import { pingmon } from '../../helpers/cli.js';
import { json as reply, startReceiver } from '../../helpers/receiver.js';
import { waitFor } from '../../helpers/wait.js';

import { alertsCli, checkSignature } from '../../helpers/alerts-cli.js';

t.test('alerts from the command line: a failed run and a silent failure reach a receiver', async (t) => {
  const { api, as, configHome } = await alertsCli(t);

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
        errorMessage: 'exit code 3: tar: /data: Cannot open: Permission denied',
        logSnippet: 'tar: /data: Cannot open: Permission denied\n',
        logTail: 'tar: /data: Cannot open: Permission denied',
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
        errorMessage: 'exit code 3: tar: /data: Cannot open: Permission denied',
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
      t.equal(lines[1], `  run ${payload.runId}: exit code 3: tar: /data: Cannot open: Permission denied`);
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
    // Status, start (date and time), duration and host.
    const marked = '\\s+✓ success ▲\\s+\\S+ \\S+\\s+\\S+\\s+\\S+\\s+';
    t.match(table[1], new RegExp(`^${payload.runId}${marked}silent failure: ${matched}$`));
    t.match(table[2], /\s+✓ success\s+\S+ \S+\s+\S+\s+\S+$/, 'the healthy run is not marked');
  });
});
